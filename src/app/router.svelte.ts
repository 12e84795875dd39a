import { parseFragment } from '../core/config/link';
import { DEFAULT_VIEW_OPTIONS, type ViewOptions } from '../core/config/view-options';
import type { FieldError } from '../core/config/errors';

/** Hash routing: `#/<route>` with an optional `?c=<config>` that carries a lab config. */
class Router {
  route = $state('');
  payload = $state<string | null>(null);
  /** How the link asks the page to open (a teacher's link); see src/core/config/view-options.ts. */
  view = $state<ViewOptions>(DEFAULT_VIEW_OPTIONS);
  viewErrors = $state<FieldError[]>([]);
  /** Bumped on every navigation, so views can re-read the payload even when it is unchanged. */
  visit = $state(0);

  constructor() {
    if (typeof window === 'undefined') return;
    this.read();
    window.addEventListener('hashchange', () => this.read());
  }

  private read() {
    const { route, payload, view, viewErrors } = parseFragment(window.location.hash);
    this.route = route;
    this.payload = payload;
    this.view = view;
    this.viewErrors = viewErrors;
    this.visit++;
  }

  /** Updates the address bar without a new history entry, so the link always reproduces the view. */
  replace(fragment: string) {
    if (window.location.hash !== fragment) history.replaceState(null, '', fragment);
  }
}

export const router = new Router();
