import type { SessionUser } from './api.js';
import { clear, h } from './dom.js';

export async function webhooksView(main: HTMLElement, _user: SessionUser): Promise<void> {
  clear(main, h('section', { class: 'card' }, h('h2', {}, 'Webhooks'), h('p', { class: 'muted' }, 'Manage webhooks with an API key under /api/v1/webhooks.')));
}
