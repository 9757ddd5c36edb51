import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';

/** A landing page with a Continue button that goes to /login (docs/web-app.md, "Screens"). */
export function WelcomeRoute() {
  const navigate = useNavigate();
  return (
    <section className="hero" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Water Vending Solutions</h1>
      <p className="hero-lead">
        Clean drinking water, fresh water and cold water, sold by coin or prepaid card. Manage your machines, attendants
        and cards in one place.
      </p>
      <Button className="btn-lg" onClick={() => navigate(paths.login.getHref())}>
        Continue
      </Button>
    </section>
  );
}
