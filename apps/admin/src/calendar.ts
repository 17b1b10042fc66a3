import { ApiError, call, Integration, org, Schedule, SessionUser } from './api.js';
import { clear, field, h, status, when } from './dom.js';

/** The calendar integration: the masked URL, a form to set (or replace) it, remove. */
export async function calendarView(main: HTMLElement, user: SessionUser): Promise<void> {
  const base = org(user.organization_id, 'calendar-integration');
  const current = h('div', { id: 'integration' });
  const feedback = h('div', { id: 'integration-feedback' });

  const url = field('iCalendar feed URL', { type: 'url', name: 'url', required: true, placeholder: 'https://…/basic.ics' });
  // The organization's schedules to choose from (the first 100: an import target is picked by name).
  const schedules = (await call<{ data: Schedule[] }>('GET', `${org(user.organization_id, 'schedules')}?limit=100`)).data;
  const scheduleSelect = h(
    'select',
    { name: 'schedule_id', required: true },
    h('option', { value: '' }, schedules.length ? 'Choose a schedule…' : 'No schedule yet: create one with the API'),
    ...schedules.map((s) => h('option', { value: s.id }, `${s.name} (${s.timezone})`)),
  );
  const schedule = { label: h('label', {}, 'Schedule (receives the imported bookings)', scheduleSelect), input: scheduleSelect };
  const name = field('Name (attendee when an event names nobody)', { type: 'text', name: 'name', maxlength: '300' });
  const submit = h('button', { type: 'submit' }, 'Save integration');
  const form = h('form', { id: 'integration-form' }, url.label, schedule.label, name.label, h('div', { class: 'row' }, submit));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    clear(feedback);
    const body: Record<string, string> = { provider: 'ics', url: url.input.value, schedule_id: schedule.input.value.trim() };
    if (name.input.value.trim()) body['name'] = name.input.value.trim();
    call<{ data: Integration }>('PUT', base, body)
      .then((answer) => {
        url.input.value = '';
        render(answer.data);
        clear(feedback, status('ok', 'Integration saved.'));
      })
      .catch((error: unknown) => clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not save.')))
      .finally(() => (submit.disabled = false));
  });

  function render(integration: Integration | null): void {
    if (!integration) return clear(current, h('p', { class: 'muted', id: 'integration-none' }, 'No calendar integration yet.'));
    schedule.input.value = integration.schedule_id;
    name.input.value = integration.name;
    const remove = h('button', { type: 'button', class: 'danger', id: 'remove-integration' }, 'Remove integration');
    remove.addEventListener('click', () => {
      if (!window.confirm('Remove the calendar integration? Imported bookings stay.')) return;
      remove.disabled = true;
      call<unknown>('DELETE', base)
        .then(() => {
          render(null);
          clear(feedback, status('ok', 'Integration removed.'));
        })
        .catch((error: unknown) => {
          remove.disabled = false;
          clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not remove.'));
        });
    });
    clear(
      current,
      h(
        'dl',
        {},
        h('dt', {}, 'Feed (masked)'),
        h('dd', { class: 'mono', id: 'integration-url' }, integration.url),
        h('dt', {}, 'Schedule'),
        h('dd', {}, schedules.find((s) => s.id === integration.schedule_id)?.name ?? integration.schedule_id),
        h('dt', {}, 'Name'),
        h('dd', {}, integration.name),
        h('dt', {}, 'Last import'),
        h('dd', {}, when(integration.last_synced_at)),
      ),
      remove,
    );
  }

  clear(
    main,
    h('section', { class: 'card' }, h('h2', {}, 'Calendar integration'), current, feedback),
    h('section', { class: 'card' }, h('h2', {}, 'Set the feed'), form),
  );
  try {
    render((await call<{ data: Integration }>('GET', base)).data);
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 404) render(null);
    else throw error;
  }
}
