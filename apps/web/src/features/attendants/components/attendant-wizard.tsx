import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { newUserId } from '@/lib/user-id';
import { useFields } from '@/hooks/use-fields';
import { StatusMessage } from '@/components/ui/status-message';
import { StepIndicator } from '@/components/ui/step-indicator';
import { useAttendants } from '../api/get-attendants';
import { useManagerDeviceIds } from '../api/get-manager-device-ids';
import { useRegisterAttendant } from '../api/register-attendant';
import { AttendantAccountStep, type TakenDevice } from './attendant-account-step';
import { EMPTY_ATTENDANT, PERSONAL_FIELDS, personalComplete, toRegisterAttendantRequest } from './attendant-fields';
import { AttendantPersonalStep } from './attendant-personal-step';

/**
 * Create New Attendant (manager, /manager/attendant/register). Only the manager's machines without an attendant
 * are offered (GET /manager/attendants says which have one); a refused value is named beside its field, and a
 * refusal of a step-1 field brings that step back.
 */
export function AttendantWizard() {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [userId, setUserId] = useState(newUserId);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const fields = useFields(EMPTY_ATTENDANT);
  const deviceIds = useManagerDeviceIds();
  const attendants = useAttendants();
  const mutation = useRegisterAttendant();

  const taken: TakenDevice[] = (attendants.data ?? []).flatMap((a) =>
    a.esp32Id ? [{ esp32Id: a.esp32Id, attendantName: `${a.firstName} ${a.lastName}` }] : [],
  );
  const free = (deviceIds.data ?? []).filter((id) => !taken.some((d) => d.esp32Id === id));
  const takenHere = taken.filter((d) => deviceIds.data?.includes(d.esp32Id));

  const validatePersonal = () => {
    const complete = personalComplete(fields.values);
    setProblem(complete ? null : t('attendants.personal.missing'));
    setNotice(null);
    return complete;
  };

  const goTo = (next: number) => {
    setProblem(null);
    mutation.reset();
    setStep(next);
  };

  const register = () => {
    const { password, confirmPassword, esp32Id } = fields.values;
    const found =
      password !== confirmPassword ? t('attendants.passwordsDiffer') : !esp32Id ? t('attendants.device.missing') : null;
    setProblem(found);
    if (found) return;
    setRefused(false);
    mutation.mutate(toRegisterAttendantRequest(userId, fields.values), {
      onSuccess: ({ message }) => {
        setNotice(message);
        fields.reset();
        setUserId(newUserId());
        setStep(0);
      },
      onError: (error) => {
        const placed = fields.showServerErrors(error, (name) =>
          t(`attendants.invalid.${name === 'confirmPassword' ? 'password' : name}`, { min: MIN_PASSWORD_LENGTH }),
        );
        setRefused(placed.length > 0);
        if (placed.some((name) => PERSONAL_FIELDS.includes(name as (typeof PERSONAL_FIELDS)[number]))) setStep(0);
      },
    });
  };

  return (
    <div className="wizard">
      <StepIndicator steps={[t('attendants.steps.personal'), t('attendants.steps.account')]} current={step} />
      {step === 0 ? (
        <AttendantPersonalStep bind={fields.bind} validate={validatePersonal} onNext={() => goTo(1)} />
      ) : (
        <AttendantAccountStep
          bind={fields.bind}
          deviceIds={free}
          taken={takenHere}
          busy={mutation.isPending}
          onBack={() => goTo(0)}
          onRegister={register}
        />
      )}
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={refused ? t('settings.fieldsRefused') : errorDetail(mutation.error)}>
          {t('attendants.registerFailed')}
        </StatusMessage>
      )}
      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
    </div>
  );
}
