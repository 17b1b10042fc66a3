import { ApiError, call, SessionUser } from './api.js';
import { clear, field, h, status } from './dom.js';
import { auditView } from './audit.js';
import { calendarView } from './calendar.js';
import { importView } from './import.js';
import { keysView } from './keys.js';
import { webhooksView } from './webhooks.js';

type View = 'keys' | 'calendar' | 'import' | 'webhooks' | 'audit';
const views: Record<View, (main: HTMLElement, user: SessionUser) => Promise<void>> = {
  keys: keysView,
  calendar: calendarView,
  import: importView,
  webhooks: webhooksView,
  audit: auditView,
};

const main = document.getElementById('main') as HTMLElement;
const tabs = document.getElementById('tabs') as HTMLElement;
const who = document.getElementById('who') as HTMLElement;
const whoEmail = document.getElementById('who-email') as HTMLElement;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;

/**
 * The origin the server accepts sessions from (its APP_URL), written into the page by the server.
 * Opened under another name (127.0.0.1 for localhost, an internal host name), every sign-in would be
 * refused as cross-origin: the page says where to go instead of offering a form that cannot work.
 */
const appOrigin = document.querySelector<HTMLMetaElement>('meta[name="app-origin"]')?.content || location.origin;

let user: SessionUser | null = null;

function isView(value: string | undefined): value is View {
  return value !== undefined && value in views;
}

async function show(view: View): Promise<void> {
  if (!user) return;
  for (const button of tabs.querySelectorAll<HTMLButtonElement>('button[data-view]')) {
    if (button.dataset['view'] === view) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
  }
  clear(main, h('p', { class: 'muted' }, 'Loading…'));
  try {
    await views[view](main, user);
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 401) return signedOut('Your session has ended; sign in again.');
    clear(main, status('error', error instanceof ApiError ? error.describe() : 'Something went wrong.'));
  }
}

function signedIn(current: SessionUser): void {
  user = current;
  whoEmail.textContent = `${current.name} · ${current.email}`;
  who.hidden = false;
  tabs.hidden = false;
  void show('keys');
}

function signedOut(message?: string): void {
  user = null;
  who.hidden = true;
  tabs.hidden = true;
  if (location.origin !== appOrigin) {
    const there = `${appOrigin}/admin`;
    clear(
      main,
      h(
        'section',
        { class: 'card', id: 'wrong-origin', role: 'alert' },
        h('h2', {}, 'Open the console at its own address'),
        h('p', {}, `This page was opened at ${location.origin}, but this server accepts sign-ins only from ${appOrigin} (its APP_URL).`),
        h('p', {}, h('a', { href: there, id: 'app-origin-link' }, `Go to ${there}`)),
      ),
    );
    return;
  }
  const email = field('E-mail', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = field('Password', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const feedback = h('div', { id: 'login-feedback' }, message ? status('error', message) : null);
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const form = h('form', { id: 'login-form', 'aria-labelledby': 'login-title' }, email.label, password.label, h('div', { class: 'row' }, submit), feedback);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    clear(feedback);
    call<{ data: { user: SessionUser } }>('POST', '/api/auth/login', { email: email.input.value, password: password.input.value })
      .then((answer) => signedIn(answer.data.user))
      .catch((error: unknown) => {
        const text =
          error instanceof ApiError && error.problem.status === 401
            ? 'Wrong e-mail or password.'
            : error instanceof ApiError
              ? error.describe()
              : 'Could not reach the server.';
        clear(feedback, status('error', text));
        password.input.value = '';
        password.input.focus();
      })
      .finally(() => (submit.disabled = false));
  });
  clear(main, h('section', { class: 'card' }, h('h2', { id: 'login-title' }, 'Sign in'), form));
  email.input.focus();
}

tabs.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-view]');
  const view = button?.dataset['view'];
  if (isView(view)) void show(view);
});

signOut.addEventListener('click', () => {
  call<void>('POST', '/api/auth/logout')
    .catch(() => undefined)
    .finally(() => signedOut());
});

call<{ data: { user: SessionUser } }>('GET', '/api/auth/session')
  .then((answer) => signedIn(answer.data.user))
  .catch(() => signedOut());
