import { useTranslation } from '@/lib/i18n';

interface StepIndicatorProps {
  steps: readonly string[];
  /** Zero-based. */
  current: number;
}

/** The wizard's progress: "Step 1 of 2" for assistive technology, numbered pills for the eye. */
export function StepIndicator({ steps, current }: StepIndicatorProps) {
  const { t } = useTranslation();
  return (
    <ol className="steps" aria-label={t('ui.stepOf', { step: current + 1, steps: steps.length })}>
      {steps.map((step, index) => (
        <li
          key={step}
          className={index === current ? 'step step-current' : index < current ? 'step step-done' : 'step'}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="step-number" aria-hidden="true">
            {index + 1}
          </span>
          {step}
        </li>
      ))}
    </ol>
  );
}
