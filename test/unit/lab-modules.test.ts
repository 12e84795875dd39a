import { describe, expect, it } from 'vitest';
import { LAB_NAMES, type LabName } from '../../src/core/config/lab-definition';
import { parseConfig } from '../../src/labs/lab-module';
import { REGISTRY } from '../../models/registry';
import { LAB_MODULE_BY_NAME, LAB_MODULES, LABS, OPEN_LABS, labByName, openLabByName, type LabModules } from '../../src/labs/registry';

// Compile-time: every lab name has a module with every piece. A missing module, or a module without a runner, a view,
// a description or presets, fails `npm run check` here (and in src/labs/registry.ts) before any test runs.
type EveryPiece = { [K in LabName]: Required<Pick<LabModules[K], 'definition' | 'runner' | 'view' | 'description' | 'presets'>> };
const everyPiece: EveryPiece = LAB_MODULE_BY_NAME;

/** Lab K's typed runner on K's default config (generic in K, so the config type is K's without a cast). */
function planDefault<K extends LabName>(name: K) {
  const m = LAB_MODULE_BY_NAME[name];
  return m.runner.plan(parseConfig(m.definition, {}));
}

describe('lab modules', () => {
  it('one module per lab name, in LAB_NAMES order', () => {
    expect(LAB_MODULES.map((m) => m.definition.name)).toEqual([...LAB_NAMES]);
    expect(Object.keys(everyPiece).sort()).toEqual([...LAB_NAMES].sort());
    expect(LABS).toEqual(LAB_MODULES.map((m) => m.definition));
    expect(OPEN_LABS.map((l) => l.name)).toEqual([...LAB_NAMES]);
  });

  it.each(LAB_MODULES.map((m) => [m.definition.name, m] as const))('%s has every piece', (name, m) => {
    expect(m.definition.title).toBeTruthy();
    expect(m.definition.intro).toBeTruthy();
    expect(m.definition.summary).toBeTruthy();
    expect(m.definition.version).toBeGreaterThanOrEqual(1);
    expect(m.runner.lab).toBe(name);
    expect(typeof m.runner.plan).toBe('function');
    expect(typeof m.runner.runEpisode).toBe('function');
    expect(typeof m.runner.summarize).toBe('function');
    expect(typeof m.view).toBe('function');
    expect(m.description.now.trim().length).toBeGreaterThan(20);
    // Issue 17: no lab page promises what it does not do; the description has no "coming" list any more.
    expect(Object.keys(m.description)).toEqual(['now']);
    expect(Array.isArray(m.presets)).toBe(true);
    for (const p of m.presets) {
      expect(p.id && p.title && p.caption).toBeTruthy();
      expect(() => m.definition.schema.parse(p.config)).not.toThrow();
    }
  });

  it.each(LAB_MODULES.map((m) => m.definition.name))('%s: the runner plans its default config', (name) => {
    const plan = planDefault(name);
    expect(Number.isInteger(plan.episodes) && plan.episodes > 0).toBe(true);
    expect(plan.bytesPerEpisode).toBeGreaterThan(0);
    expect(Array.isArray(plan.models)).toBe(true);
    // The opened lab parses an untyped config first and plans the same.
    expect(openLabByName(name).plan({})).toEqual(plan);
  });

  it('an opened lab refuses a config its schema rejects, before the runner sees it', () => {
    expect(() => openLabByName('opinions').plan({ graph: { side: 1 } })).toThrow();
    expect(() => openLabByName('synchrony').plan({ agents: { a: 'x', b: 'y' } })).toThrow();
  });

  it('labByName knows the labs and nothing else', () => {
    for (const name of LAB_NAMES) expect(labByName(name)?.definition).toBe(LAB_MODULE_BY_NAME[name].definition);
    expect(labByName('runs')).toBeUndefined();
    expect(labByName('constructor')).toBeUndefined();
  });
});

describe('lab presets', () => {
  it.each(OPEN_LABS.map((l) => [l.name, l] as const))('%s has a preset that shows its effect, and that can run here', (name, lab) => {
    expect(lab.presets.length).toBeGreaterThan(0);
    for (const p of lab.presets) {
      expect(p.id).toMatch(/^[a-z0-9][a-z0-9-]{0,39}$/);
      expect(p.caption.length).toBeGreaterThan(60);
      expect(p.tour.length).toBeGreaterThanOrEqual(3);
      for (const step of p.tour) expect(step.length).toBeGreaterThan(30);
      const config = lab.presetConfig(p.id);
      expect(config).not.toBeNull();
      const plan = lab.plan(config);
      expect(plan.unavailable, `${name}/${p.id}: ${plan.unavailable}`).toBeUndefined();
      for (const id of plan.models)
        expect(
          REGISTRY.some((m) => m.id === id),
          `${id} is a registered model`,
        ).toBe(true);
    }
    expect(lab.presetConfig('no-such-preset')).toBeNull();
  });
});

describe('a run that cannot start offers its fix', () => {
  it('Opinions: a community on the 4,096-agent lattice offers a small random graph that can run', () => {
    const lab = openLabByName('opinions');
    const plan = lab.plan({ mode: 'community' });
    expect(plan.unavailable).toMatch(/too large/);
    expect(plan.fix?.label).toMatch(/random graph of \d+ agents/);
    const fixed = lab.plan(plan.fix!.config);
    expect(fixed.unavailable).toBeUndefined();
    expect(fixed.episodes).toBeGreaterThan(0);
  });

  it('Polarization: an intervention on a classic model offers to set it to none', () => {
    const lab = openLabByName('polarization');
    const plan = lab.plan({ intervention: { kind: 'randomInteractions' } });
    expect(plan.unavailable).toBeTruthy();
    expect(lab.plan(plan.fix!.config).unavailable).toBeUndefined();
  });
});
