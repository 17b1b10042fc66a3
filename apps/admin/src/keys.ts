import { ApiError, ApiKey, call, org, Page, SessionUser } from './api.js';
import { clear, counted, field, h, status, table, when } from './dom.js';

const SCOPES = ['bookings:read', 'bookings:write', 'events:read', 'events:write', 'posts:read', 'posts:write', 'webhooks:read', 'webhooks:write'];

/** API keys: the list (revoked ones too), a form to create one (the key shown once), revoke. */
export async function keysView(main: HTMLElement, user: SessionUser): Promise<void> {
  const base = org(user.organization_id, 'api-keys');
  const listArea = h('div', { id: 'keys-list' });
  const created = h('div', { id: 'new-key-area' });

  const name = field('Name', { type: 'text', name: 'name', required: true, maxlength: '300' });
  const expires = field('Expires (optional)', { type: 'datetime-local', name: 'expires_at' });
  // The kind: a secret key for servers, or a publishable one for a site's pages (reads published posts and events).
  const kindInput = (value: 'secret' | 'publishable', checked: boolean) =>
    h('input', { type: 'radio', name: 'kind', value, id: `kind-${value}`, ...(checked ? { checked: 'checked' } : {}) });
  const secretKind = kindInput('secret', true);
  const publishableKind = kindInput('publishable', false);
  const kinds = h(
    'fieldset',
    {},
    h('legend', {}, 'Kind'),
    h('label', {}, secretKind, 'Secret: for servers, with the scopes ticked below'),
    h('label', {}, publishableKind, 'Publishable: for a website or app in the browser; reads published posts and events only'),
  );
  const boxes = SCOPES.map((scope) => {
    const input = h('input', { type: 'checkbox', name: 'scopes', value: scope });
    return { scope, input, label: h('label', {}, input, scope) };
  });
  const scopes = h('fieldset', { id: 'secret-scopes' }, h('legend', {}, 'Scopes (none ticked: all of them)'), ...boxes.map((b) => b.label));
  const origins = field('Allowed origins (one per line, e.g. https://www.example.com)', { type: 'text', name: 'allowed_origins', id: 'key-origins' });
  const site = field('Site URL (optional: where the posts live, for the Atom feed’s links)', { type: 'url', name: 'site_url', id: 'key-site-url' });
  const publishable = h('fieldset', { id: 'publishable-fields', hidden: true }, h('legend', {}, 'Publishable key'), origins.label, site.label);
  const showKind = (): void => {
    scopes.hidden = publishableKind.checked;
    publishable.hidden = !publishableKind.checked;
  };
  secretKind.addEventListener('change', showKind);
  publishableKind.addEventListener('change', showKind);
  const submit = h('button', { type: 'submit' }, 'Create key');
  const feedback = h('div');
  const form = h('form', { id: 'create-key-form' }, name.label, kinds, scopes, publishable, expires.label, h('div', { class: 'row' }, submit), feedback);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    clear(feedback);
    const body: { name: string; kind?: 'publishable'; scopes?: string[]; allowed_origins?: string[]; site_url?: string; expires_at?: string } = {
      name: name.input.value,
    };
    if (publishableKind.checked) {
      body.kind = 'publishable';
      const listed = origins.input.value.split(/[\s,]+/).filter((origin) => origin.length > 0);
      if (listed.length > 0) body.allowed_origins = listed;
      if (site.input.value) body.site_url = site.input.value;
    } else {
      const ticked = boxes.filter((b) => b.input.checked).map((b) => b.scope);
      if (ticked.length > 0) body.scopes = ticked;
    }
    if (expires.input.value) body.expires_at = new Date(expires.input.value).toISOString();
    call<{ data: ApiKey & { key: string } }>('POST', base, body)
      .then(async (answer) => {
        form.reset();
        showKind();
        showSecret(created, answer.data);
        await refresh();
      })
      .catch((error: unknown) => clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not create the key.')))
      .finally(() => (submit.disabled = false));
  });

  async function refresh(): Promise<void> {
    const page = await call<Page<ApiKey>>('GET', `${base}?limit=100`);
    if (page.data.length === 0) return clear(listArea, h('p', { class: 'muted' }, 'No API keys yet.'));
    const rows = page.data.map((key) => {
      const revoke = h('button', { type: 'button', class: 'danger', 'data-revoke': key.id, 'aria-label': `Revoke ${key.name}` }, 'Revoke');
      revoke.addEventListener('click', () => {
        if (!window.confirm(`Revoke "${key.name}"? Requests with it will fail at once.`)) return;
        revoke.disabled = true;
        call<{ data: ApiKey }>('DELETE', `${base}/${encodeURIComponent(key.id)}`)
          .then(() => {
            // A revoked key's one-time box would show a secret that no longer works.
            if (created.dataset['keyId'] === key.id) {
              delete created.dataset['keyId'];
              clear(created);
            }
            return refresh();
          })
          .catch((error: unknown) => {
            revoke.disabled = false;
            clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not revoke the key.'));
          });
      });
      const kind =
        key.kind === 'publishable'
          ? h(
              'span',
              { 'data-kind': 'publishable' },
              h('strong', {}, 'publishable'),
              key.allowed_origins.length > 0 ? ` · ${key.allowed_origins.join(', ')}` : ' · no origins',
              key.site_url ? ` · ${key.site_url}` : '',
            )
          : h('span', { 'data-kind': 'secret' }, 'secret');
      return [
        key.name,
        kind,
        h('code', {}, `${key.prefix}…`),
        key.scopes.length === SCOPES.length ? 'all' : key.scopes.join(', '),
        when(key.created_at),
        when(key.last_used_at),
        key.expires_at ? when(key.expires_at) : 'never',
        key.revoked_at ? h('span', { class: 'error', 'data-revoked': key.id }, `revoked ${when(key.revoked_at)}`) : revoke,
      ];
    });
    clear(
      listArea,
      h('p', { class: 'muted' }, counted(page.meta.total, 'key')),
      table(['Name', 'Kind', 'Prefix', 'Scopes', 'Created', 'Last used', 'Expires', 'Status'], rows),
    );
  }

  clear(
    main,
    h('section', { class: 'card' }, h('h2', {}, 'New API key'), form, created),
    h('section', { class: 'card' }, h('h2', {}, 'API keys'), listArea),
  );
  await refresh();
}

/** The new key, this once, with a copy button. */
function showSecret(area: HTMLElement, key: ApiKey & { key: string }): void {
  const value = h('code', { id: 'new-key' }, key.key);
  const copied = h('span', { role: 'status' });
  const copy = h('button', { type: 'button', class: 'secondary', id: 'copy-key' }, 'Copy');
  copy.addEventListener('click', () => {
    navigator.clipboard
      .writeText(key.key)
      .then(() => (copied.textContent = 'Copied.'))
      .catch(() => {
        const range = document.createRange();
        range.selectNodeContents(value);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
        copied.textContent = 'Selected: press Ctrl+C to copy.';
      });
  });
  area.dataset['keyId'] = key.id;
  clear(
    area,
    h(
      'div',
      { class: 'secret', role: 'status' },
      h('strong', {}, `Key "${key.name}" created. Copy it now: it is not shown again.`),
      value,
      h('div', { class: 'row' }, copy, copied),
    ),
  );
  copy.focus();
}
