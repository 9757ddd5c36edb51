import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AddCardForm } from '@/features/cards/components/add-card-form';
import { MyDevices } from '@/features/devices/components/my-devices';
import { FloatBalance } from '@/features/float/components/float-balance';

/** The attendant's home, labelled Add Card (docs/web-app.md, "Screens"): register a prepaid card from float. */
export function AttendantDashboardRoute() {
  return (
    <Page
      title="Add Card"
      lead="Prepaid cards you register belong to the machine you run; their balance comes from your float."
    >
      <div className="split">
        <div className="card">
          <AddCardForm />
        </div>
        <div className="stack split-aside">
          <Card title="My Float">
            <FloatBalance />
          </Card>
          <Card title="My Machine">
            <MyDevices />
          </Card>
        </div>
      </div>
    </Page>
  );
}
