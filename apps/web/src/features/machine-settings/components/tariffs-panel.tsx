import { useState, type FormEvent } from 'react';
import type { InsertTariffsRequest } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useMachineSettings } from '../api/get-machine-settings';
import { useInsertTariffs } from '../api/insert-tariffs';
import { failure, refusal, type Result } from './settings-result';

const EMPTY = { coldTariffs: '', freshTariffs: '', freshCalb: '', coldCalb: '' };
type TariffFields = typeof EMPTY;
const FIELDS = ['coldTariffs', 'freshTariffs', 'freshCalb', 'coldCalb'] as const;

/**
 * Tariffs Management, 'Insert New Tariffs': the previous tariffs and calibrations,
 * four required text fields, 'Insert Tariffs' and a Clear that only empties the form; after a success the
 * fields clear and 'Newly Inserted Tariffs' shows what was sent. A refused value is named beside its field.
 */
export function TariffsPanel({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const previous = useMachineSettings(espId);
  const mutation = useInsertTariffs();
  const fields = useFields<TariffFields>(EMPTY);
  const [result, setResult] = useState<Result | null>(null);
  const [inserted, setInserted] = useState<TariffFields | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const sent = { ...fields.values };
    const body: InsertTariffsRequest = { espId, ...sent };
    mutation.mutate(body, {
      onSuccess: () => {
        setResult({ tone: 'success', text: t('settings.tariffs.inserted') });
        setInserted(sent);
        fields.reset();
      },
      onError: (error) => {
        const placed = fields.showServerErrors(error, (name) => t(`settings.tariffs.invalid.${name}`));
        setResult(
          refusal(error, placed, t('settings.fieldsRefused'), (detail) => t('settings.tariffs.error', { detail })),
        );
      },
    });
  };

  const clear = () => {
    fields.reset();
    setResult(null);
  };

  const settings = previous.data && 'cold_tariffs' in previous.data ? previous.data : null;
  return (
    <Card title={t('settings.tariffs.title')} className="settings-panel">
      <h3 className="panel-subtitle">{t('settings.tariffs.insertTitle')}</h3>
      <div className="previous" aria-label={t('settings.tariffs.previous')}>
        {settings ? (
          <DetailList
            items={[
              { label: t('settings.tariffs.previousColdTariffs'), value: String(settings.cold_tariffs) },
              { label: t('settings.tariffs.previousFreshTariffs'), value: String(settings.fresh_tariffs) },
              { label: t('settings.tariffs.previousFreshCalb'), value: String(settings.fresh_calb) },
              { label: t('settings.tariffs.previousColdCalb'), value: String(settings.cold_calb) },
            ]}
          />
        ) : previous.data && 'message' in previous.data ? (
          <p className="muted">
            {/* The server's sentence for a machine without settings (docs/rest-api.md), in the chosen language. */}
            {previous.data.message === 'No settings found' ? t('settings.tariffs.noneFound') : previous.data.message}
          </p>
        ) : previous.isPending ? (
          <p className="muted">{t('common.loading')}</p>
        ) : null}
        {previous.isError && (
          <StatusMessage tone="error">
            {failure(previous.error, (detail) => t('settings.tariffs.fetchError', { detail })).text}
          </StatusMessage>
        )}
      </div>
      <form className="form" onSubmit={submit} aria-label={t('settings.tariffs.insertTitle')}>
        <div className="form-grid form-grid-tight">
          {FIELDS.map((name) => (
            <TextField
              key={name}
              label={t(`settings.tariffs.${name}`)}
              required
              inputMode="decimal"
              autoComplete="off"
              {...fields.bind(name)}
            />
          ))}
        </div>
        <div className="actions">
          <Button type="submit" busy={mutation.isPending}>
            {t('settings.tariffs.insert')}
          </Button>
          <Button variant="secondary" title={t('settings.tariffs.clearHint')} onClick={clear}>
            {t('settings.tariffs.clear')}
          </Button>
        </div>
        {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      </form>
      {inserted && (
        <section className="inserted" aria-labelledby="inserted-title">
          <h3 id="inserted-title" className="panel-subtitle">
            {t('settings.tariffs.newlyInserted')}
          </h3>
          <DetailList items={FIELDS.map((name) => ({ label: t(`settings.tariffs.${name}`), value: inserted[name] }))} />
        </section>
      )}
    </Card>
  );
}
