import { useId, useState, type FormEvent } from 'react';
import type { AssignIdResponse } from '@wv/contracts';
import { ApiError, errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAssignId } from '../api/assign-id';
import { useMacAddresses } from '../api/get-mac-addresses';
import { useLiveMacAddresses } from '../hooks/use-live-mac-addresses';
import { DeviceKeyNotice } from './device-key-notice';

const EMPTY = { macAddress: '', espId: '' };

/**
 * Assign ESP ID to MAC Address (admin, /add-esp32). The MAC list follows new announcements live. A result is red
 * when it contains the word Error (docs/web-app.md, "Screens"); a refused value is named beside its field.
 */
export function AssignIdForm() {
  const { t } = useTranslation();
  const macs = useMacAddresses();
  const mutation = useAssignId();
  const fields = useFields(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [issued, setIssued] = useState<(AssignIdResponse & { espId: string }) | null>(null);
  const [announced, setAnnounced] = useState<string | null>(null);
  const macErrorId = useId();
  useLiveMacAddresses(setAnnounced);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    if (!fields.values.macAddress) return setProblem(t('devices.assign.macProblem'));
    setProblem(null);
    const request = { macAddress: fields.values.macAddress, espId: fields.values.espId.trim() };
    mutation.mutate(request, {
      onSuccess: (answer) => {
        setResult({ tone: answer.message.includes('Error') ? 'error' : 'success', text: answer.message });
        setIssued({ ...answer, espId: request.espId });
        fields.reset();
      },
      onError: (error) => {
        const placed = fields.showServerErrors(error, (name) => t(`devices.assign.invalid.${name}`));
        const reason = error instanceof ApiError ? (error.body?.error ?? error.body?.message) : undefined;
        setResult({
          tone: 'error',
          text: placed.length
            ? t('devices.assign.failed', { reason: t('settings.fieldsRefused') })
            : t('devices.assign.failed', { reason: reason || t('devices.assign.somethingWrong') }),
        });
      },
    });
  };

  const options = (macs.data ?? []).map(({ macAddress: mac }) => ({ value: mac, label: mac }));
  const placeholder = macs.isPending
    ? t('devices.assign.loading')
    : options.length
      ? t('devices.assign.chooseMac')
      : t('devices.assign.noMacs');
  const { error: macError, ...macBinding } = fields.bind('macAddress');
  return (
    <>
      <form className="form" onSubmit={submit}>
        <div className={macError ? 'field-invalid' : undefined}>
          <SelectField
            label={t('devices.assign.mac')}
            markRequired
            options={options}
            placeholder={placeholder}
            aria-invalid={macError ? true : undefined}
            aria-describedby={macError ? macErrorId : undefined}
            {...macBinding}
          />
          {macError && (
            <small id={macErrorId} className="field-error" role="alert">
              {macError}
            </small>
          )}
        </div>
        {announced && options.some((option) => option.value === announced) && (
          <StatusMessage tone="info">{t('devices.assign.newMac', { macAddress: announced })}</StatusMessage>
        )}
        {macs.isError && (
          <StatusMessage tone="error">
            {t('devices.assign.macsError', { detail: errorDetail(macs.error) })}
          </StatusMessage>
        )}
        <TextField
          label={t('devices.assign.espId')}
          placeholder={t('devices.assign.espIdPlaceholder')}
          required
          autoComplete="off"
          {...fields.bind('espId')}
        />
        <Button type="submit" busy={mutation.isPending}>
          {t('devices.assign.submit')}
        </Button>
        {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
        {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      </form>
      {issued && (
        <DeviceKeyNotice espId={issued.espId} deviceKey={issued.deviceKey} onDismiss={() => setIssued(null)} />
      )}
    </>
  );
}
