import { ApiError, call, Delivery, org, Page, SessionUser, Webhook, webhookEventTypes } from './api.js';
import { clear, field, h, status, table, when } from './dom.js';

function problemText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.describe() : fallback;
}

/**
 * What the endpoint answered. A pending delivery (a retry, a redelivery) has no answer yet: it says
 * so, and an earlier attempt's answer is named as such rather than shown as its outcome.
 */
function answerOf(delivery: Delivery): string {
  const last = delivery.response_status === null ? delivery.error : String(delivery.response_status);
  if (delivery.status !== 'pending') return last ?? '—';
  const queued = delivery.next_attempt_at ? `queued, due ${when(delivery.next_attempt_at)}` : 'queued';
  return last ? `${queued} (previous attempt: ${last})` : queued;
}

/** Webhooks: the endpoints, a form to subscribe one (secret shown once), enable/disable, ping, the delivery log, redeliver. */
export async function webhooksView(main: HTMLElement, user: SessionUser): Promise<void> {
  const base = org(user.organization_id, 'webhooks');
  const listArea = h('div', { id: 'webhooks-list' });
  const secretArea = h('div', { id: 'new-webhook-area' });
  const logArea = h('div', { id: 'deliveries', 'aria-live': 'polite' });
  const feedback = h('div', { id: 'webhooks-feedback' });

  const url = field('Endpoint URL', { type: 'url', name: 'url', required: true, placeholder: 'https://example.com/hooks/almanac' });
  // One box per event type; "all events" ticked by default, and ticking it clears the others.
  const boxes = (await webhookEventTypes()).map((type) => {
    const input = h('input', { type: 'checkbox', name: 'events', value: type, checked: type === '*' });
    return { type, input, label: h('label', {}, input, type === '*' ? 'All events (*)' : type) };
  });
  for (const box of boxes) {
    box.input.addEventListener('change', () => {
      if (!box.input.checked) return;
      for (const other of boxes) if ((box.type === '*') !== (other.type === '*')) other.input.checked = false;
    });
  }
  const events = h('fieldset', { id: 'webhook-events' }, h('legend', {}, 'Events'), ...boxes.map((b) => b.label));
  const description = field('Description (optional)', { type: 'text', name: 'description', maxlength: '300' });
  const submit = h('button', { type: 'submit' }, 'Subscribe');
  const form = h('form', { id: 'create-webhook-form' }, url.label, events, description.label, h('div', { class: 'row' }, submit));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clear(feedback);
    const ticked = boxes.filter((b) => b.input.checked).map((b) => b.type);
    if (ticked.length === 0) return clear(feedback, status('error', 'Tick at least one event.'));
    submit.disabled = true;
    const body: { url: string; events: string[]; description?: string } = { url: url.input.value, events: ticked };
    if (description.input.value.trim()) body.description = description.input.value.trim();
    call<{ data: Webhook & { secret: string } }>('POST', base, body)
      .then(async (answer) => {
        form.reset(); // back to the defaults: all events
        const copy = h('button', { type: 'button', class: 'secondary', id: 'copy-secret' }, 'Copy');
        const copied = h('span', { role: 'status' });
        copy.addEventListener('click', () => {
          navigator.clipboard
            .writeText(answer.data.secret)
            .then(() => (copied.textContent = 'Copied.'))
            .catch(() => (copied.textContent = 'Select the secret and copy it.'));
        });
        clear(
          secretArea,
          h(
            'div',
            { class: 'secret', role: 'status' },
            h('strong', {}, 'Endpoint subscribed. Its signing secret is shown this once:'),
            h('code', { id: 'new-webhook-secret' }, answer.data.secret),
            h('div', { class: 'row' }, copy, copied),
          ),
        );
        await refresh();
      })
      .catch((error: unknown) => clear(feedback, status('error', problemText(error, 'Could not subscribe.'))))
      .finally(() => (submit.disabled = false));
  });

  async function showDeliveries(hook: Webhook): Promise<void> {
    const page = await call<Page<Delivery>>('GET', `${base}/${encodeURIComponent(hook.id)}/deliveries?limit=50`);
    const rows = page.data.map((delivery) => {
      const again = h('button', { type: 'button', class: 'secondary', 'data-redeliver': delivery.id }, 'Redeliver');
      again.addEventListener('click', () => {
        again.disabled = true;
        call<{ data: Delivery }>('POST', `${base}/${encodeURIComponent(hook.id)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`)
          .then(() => showDeliveries(hook))
          .catch((error: unknown) => clear(feedback, status('error', problemText(error, 'Could not redeliver.'))));
      });
      return [
        delivery.event_type,
        h('span', { 'data-status': delivery.status }, delivery.status),
        String(delivery.attempts),
        h('span', { 'data-answer': delivery.id }, answerOf(delivery)),
        when(delivery.last_attempt_at),
        again,
      ];
    });
    clear(
      logArea,
      h('h3', {}, `Deliveries to ${hook.url}`),
      page.data.length === 0 ? h('p', { class: 'muted' }, 'No deliveries yet.') : table(['Event', 'Status', 'Attempts', 'Answer', 'Last attempt', ''], rows),
    );
  }

  async function refresh(): Promise<void> {
    const page = await call<Page<Webhook>>('GET', `${base}?limit=100`);
    if (page.data.length === 0) return clear(listArea, h('p', { class: 'muted' }, 'No webhook endpoints yet.'));
    const rows = page.data.map((hook) => {
      const toggle = h('button', { type: 'button', class: 'secondary', 'data-toggle': hook.id }, hook.enabled ? 'Disable' : 'Enable');
      toggle.addEventListener('click', () => {
        toggle.disabled = true;
        call<{ data: Webhook }>('PATCH', `${base}/${encodeURIComponent(hook.id)}`, { enabled: !hook.enabled })
          .then(() => refresh())
          .catch((error: unknown) => clear(feedback, status('error', problemText(error, 'Could not change the endpoint.'))));
      });
      const ping = h('button', { type: 'button', class: 'secondary', 'data-ping': hook.id }, 'Send ping');
      ping.addEventListener('click', () => {
        call<{ data: Delivery }>('POST', `${base}/${encodeURIComponent(hook.id)}/ping`)
          .then(() => showDeliveries(hook))
          .catch((error: unknown) => clear(feedback, status('error', problemText(error, 'Could not ping.'))));
      });
      const log = h('button', { type: 'button', class: 'secondary', 'data-log': hook.id }, 'Deliveries');
      log.addEventListener('click', () => {
        showDeliveries(hook).catch((error: unknown) => clear(feedback, status('error', problemText(error, 'Could not load the log.'))));
      });
      return [
        h('span', { class: 'mono' }, hook.url),
        hook.events.join(', '),
        hook.description ?? '—',
        h('span', { 'data-enabled': hook.id, class: hook.enabled ? 'ok' : 'error' }, hook.enabled ? 'enabled' : 'disabled'),
        h('div', { class: 'row' }, toggle, ping, log),
      ];
    });
    clear(listArea, table(['URL', 'Events', 'Description', 'State', 'Actions'], rows));
  }

  clear(
    main,
    h('section', { class: 'card' }, h('h2', {}, 'New webhook endpoint'), form, secretArea, feedback),
    h('section', { class: 'card' }, h('h2', {}, 'Webhook endpoints'), listArea, logArea),
  );
  await refresh();
}
