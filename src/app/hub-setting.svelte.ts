/**
 * Where hub models download from: the Hugging Face hub, or a mirror the user names (a campus or company mirror, or a
 * test's loopback hub). Kept in this browser's localStorage; the text is checked before it is used.
 */
import { DEFAULT_HUB_URL, hubEndpoint } from '../runtime/hub';

const KEY = 'social-minds-lab/hub-url';

class HubSetting {
  /** The checked base URL, or '' for the hub itself. */
  url = $state(read());
  error = $state<string | null>(null);

  /** Sets the address ('' for the hub itself); an address that is not an http(s) URL is refused with a message. */
  set(text: string): boolean {
    const checked = text.trim() ? hubEndpoint(text) : '';
    if (checked === null) {
      this.error = `"${text.slice(0, 80)}" is not an http(s) address (for example https://hf-mirror.example.org/).`;
      return false;
    }
    this.error = null;
    this.url = checked === DEFAULT_HUB_URL ? '' : checked;
    try {
      if (this.url) localStorage.setItem(KEY, this.url);
      else localStorage.removeItem(KEY);
    } catch {
      // Storage refused (private mode): the setting lasts for this page.
    }
    return true;
  }
}

function read(): string {
  try {
    const stored = localStorage.getItem(KEY);
    const checked = stored ? hubEndpoint(stored) : null;
    return checked && checked !== DEFAULT_HUB_URL ? checked : '';
  } catch {
    return '';
  }
}

export const hubSetting = new HubSetting();
