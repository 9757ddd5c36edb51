import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { CardSummaryTiles } from '@/features/cards/components/card-summary-tiles';

/** Card Information Summary (/manager/card/info/summary): a tile opens the machine's registered cards. */
export function CardSummaryRoute() {
  return (
    <Page
      title="Card Information Summary"
      lead="Registered prepaid cards per machine. Select a machine to see its cards."
    >
      <CardSummaryTiles cardsHref={paths.manager.cardInfo.getHref} />
    </Page>
  );
}
