import { useState } from 'react';
import { errorDetail } from '@/lib/api-client';
import { newUserId } from '@/lib/user-id';
import { useFields } from '@/hooks/use-fields';
import { StatusMessage } from '@/components/ui/status-message';
import { StepIndicator } from '@/components/ui/step-indicator';
import { useManagerDeviceIds } from '../api/get-manager-device-ids';
import { useRegisterAttendant } from '../api/register-attendant';
import { AttendantAccountStep } from './attendant-account-step';
import { accountStepProblem } from '@/lib/registration';
import { EMPTY_ATTENDANT, personalProblem, toRegisterAttendantRequest } from './attendant-fields';
import { AttendantPersonalStep } from './attendant-personal-step';

const STEPS = ['Personal Info', 'Account Info'] as const;

/** Create New Attendant (manager, /manager/attendant/register). */
export function AttendantWizard() {
  const [step, setStep] = useState(0);
  const [userId, setUserId] = useState(newUserId);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fields = useFields(EMPTY_ATTENDANT);
  const deviceIds = useManagerDeviceIds();
  const mutation = useRegisterAttendant();

  const validatePersonal = () => {
    const found = personalProblem(fields.values);
    setProblem(found);
    setNotice(null);
    return !found;
  };

  const goTo = (next: number) => {
    setProblem(null);
    mutation.reset();
    setStep(next);
  };

  const register = () => {
    const found = accountStepProblem(fields.values);
    setProblem(found);
    if (found) return;
    mutation.mutate(toRegisterAttendantRequest(userId, fields.values), {
      onSuccess: ({ message }) => {
        setNotice(message);
        fields.reset();
        setUserId(newUserId());
        setStep(0);
      },
    });
  };

  return (
    <div className="wizard">
      <StepIndicator steps={STEPS} current={step} />
      {step === 0 ? (
        <AttendantPersonalStep bind={fields.bind} validate={validatePersonal} onNext={() => goTo(1)} />
      ) : (
        <AttendantAccountStep
          bind={fields.bind}
          deviceIds={deviceIds.data ?? []}
          busy={mutation.isPending}
          onBack={() => goTo(0)}
          onRegister={register}
        />
      )}
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          Error registering user
        </StatusMessage>
      )}
      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
    </div>
  );
}
