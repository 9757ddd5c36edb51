import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { FloatBalance } from '@/features/float/components/float-balance';
import { FloatHistory } from '@/features/float/components/float-history';
import { RequestFloatForm } from '@/features/float/components/request-float-form';

/** Request Float (/att/manager/float, on the Attendant Dashboard). */
export function RequestFloatRoute() {
  return (
    <Page title="Request Float" lead="Ask your manager for float to load onto customers’ cards.">
      <div className="stack">
        <div className="split">
          <div className="card">
            <RequestFloatForm />
          </div>
          <Card title="My Float">
            <FloatBalance />
          </Card>
        </div>
        <Card title="Float Request History">
          <FloatHistory />
        </Card>
      </div>
    </Page>
  );
}
