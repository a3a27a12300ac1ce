// One bundle, three pages chosen by path; each page's code loads only on its own page (the
// dashboard never downloads the Stellar SDK).
import { render } from 'preact';
import './styles.css';

const app = document.getElementById('app')!;
const path = location.pathname;
const checkout = path.match(/^\/checkout\/([^/]+)\/?$/);

if (checkout) {
  import('./pages/checkout.tsx').then(({ CheckoutPage }) =>
    render(<CheckoutPage planId={decodeURIComponent(checkout[1])} />, app),
  );
} else if (path === '/dashboard' || path === '/dashboard/') {
  import('./pages/dashboard.tsx').then(({ DashboardPage }) => render(<DashboardPage />, app));
} else if (path === '/manage' || path === '/manage/') {
  import('./pages/manage.tsx').then(({ ManagePage }) => render(<ManagePage />, app));
} else {
  render(
    <main class="narrow">
      <h1>Not found</h1>
      <p>
        Open <a href="/dashboard">/dashboard</a>, <a href="/manage">/manage</a> or a plan's /checkout/&lt;plan id&gt;.
      </p>
    </main>,
    app,
  );
}
