import { useState } from 'react';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { newUserId } from '@/lib/user-id';
import { useFields } from '@/hooks/use-fields';
import { StatusMessage } from '@/components/ui/status-message';
import { StepIndicator } from '@/components/ui/step-indicator';
import { useRegisterUser } from '../api/register-user';
import { useUnassignedEsp32Ids } from '../hooks/use-unassigned-esp32-ids';
import { AccountInfoStep } from './account-info-step';
import { PersonalInfoStep } from './personal-info-step';
import { accountStepProblem } from '@/lib/registration';
import { EMPTY_REGISTRATION, registrationTextKey, toRegisterUserRequest } from './registration-fields';

/**
 * Create user (admin, /register). The client generates the new user's id once per user: a retry of the
 * same registration is idempotent on the server (docs/rest-api.md, "Details"); a fresh id follows each success.
 */
export function CreateUserWizard() {
  const { t } = useTranslation();
  const steps = [t('createUser.steps.personal'), t('createUser.steps.account')];
  const say = (text: string) => {
    const key = registrationTextKey(text);
    return key ? t(key) : text;
  };
  const [step, setStep] = useState(0);
  const [userId, setUserId] = useState(newUserId);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fields = useFields(EMPTY_REGISTRATION);
  const choices = useUnassignedEsp32Ids();
  const mutation = useRegisterUser();

  const register = () => {
    const found = accountStepProblem(fields.values);
    setProblem(found);
    setNotice(null);
    if (found) return;
    mutation.mutate(toRegisterUserRequest(userId, fields.values), {
      onSuccess: ({ message }) => {
        setNotice(message);
        fields.reset();
        setUserId(newUserId());
        setStep(0);
      },
    });
  };

  const goTo = (next: number) => {
    setProblem(null);
    setNotice(null);
    mutation.reset();
    setStep(next);
  };

  return (
    <div className="wizard">
      <StepIndicator steps={steps} current={step} />
      {step === 0 ? (
        <PersonalInfoStep bind={fields.bind} onNext={() => goTo(1)} />
      ) : (
        <AccountInfoStep
          bind={fields.bind}
          esp32Id={fields.values.esp32Id}
          onEsp32IdChange={(value) => fields.set('esp32Id', value)}
          choices={choices}
          busy={mutation.isPending}
          onBack={() => goTo(0)}
          onRegister={register}
        />
      )}
      {problem && <StatusMessage tone="error">{say(problem)}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          {t('createUser.failed')}
        </StatusMessage>
      )}
      {notice && <StatusMessage tone="success">{say(notice)}</StatusMessage>}
    </div>
  );
}
