// What the Opinions lab's browser tests share: a link to the lab with some settings changed.
import { defaultConfig, encodeLinkFragment } from '../../../src/core/config';
import { opinionsLab } from '../../../src/labs/opinions/config';

export type OpinionsTestConfig = ReturnType<typeof defaultConfig<typeof opinionsLab>>;

/** The link fragment of the lab's default config after `edit`. */
export function opinionsLink(edit: (c: OpinionsTestConfig) => void): string {
  const c = defaultConfig(opinionsLab);
  edit(c);
  return encodeLinkFragment(opinionsLab, c);
}
