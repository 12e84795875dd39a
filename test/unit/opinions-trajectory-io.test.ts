// Trajectory imports (JSON and CSV): a good file round-trips; hostile and malformed files are refused with a message.
import { describe, expect, it } from 'vitest';
import {
  parseTrajectoryCsv,
  parseTrajectoryFiles,
  parseTrajectoryJson,
  trajectoriesToCsv,
  trajectoriesToJson,
  TRAJECTORY_LIMITS,
} from '../../src/labs/opinions/trajectory-io';
import { TRAJECTORY_FORMAT, type OpinionTrajectory } from '../../src/labs/opinions/trajectory';
import { syntheticTrajectories } from '../../src/labs/opinions/synthetic-trajectories';

function small(): OpinionTrajectory {
  return {
    id: 'q1/g0/e0',
    question: { id: 'q1', kind: 'objective', text: 'Is 7 prime? A: yes, B: no', correct: 1 },
    graphId: 'g0',
    graph: {
      n: 3,
      edges: [
        [0, 1, 1],
        [1, 2, -1],
      ],
    },
    voteMeans: [
      [0.6, -0.2, 1],
      [0.2, 0.6, -1],
    ],
  };
}
const file = (...ts: unknown[]) => JSON.stringify({ format: TRAJECTORY_FORMAT, trajectories: ts });
const refused = (text: string) => {
  const r = parseTrajectoryJson(text);
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.message;
};

describe('trajectory JSON', () => {
  it('accepts a good file (and a bare list) and round-trips it', () => {
    const r = parseTrajectoryJson(file(small()));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.file.trajectories[0]).toEqual(small());
    const again = parseTrajectoryJson(trajectoriesToJson(r.file.trajectories));
    expect(again.ok && again.file.trajectories).toEqual([small()]);
    expect(parseTrajectoryJson(JSON.stringify([small()])).ok).toBe(true);
  });

  it('refuses markup in any string, prototype keys, and unknown keys', () => {
    const t = small();
    t.question.text = 'hello <img src=x onerror=alert(1)>';
    expect(refused(file(t))).toMatch(/question\.text.*markup/);
    expect(refused(file({ ...small(), id: '<script>alert(1)</script>' }))).toMatch(/markup/);
    expect(refused(file({ ...small(), question: { ...small().question, text: 'javascript:alert(1)' } }))).toMatch(/markup/);
    expect(refused(`{"format":"${TRAJECTORY_FORMAT}","trajectories":[],"__proto__":{"polluted":1}}`)).toMatch(/__proto__/);
    expect(refused(file({ ...small(), constructor: { prototype: {} } }))).toMatch(/constructor/);
    expect(refused(file({ ...small(), extra: 1 }))).toMatch(/extra|unrecognized/i);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses wrong shapes with the path', () => {
    expect(refused('not json')).toMatch(/not valid JSON/);
    expect(refused(JSON.stringify({ format: 'something-else', trajectories: [small()] }))).toMatch(/format/);
    expect(refused(file())).toMatch(/no trajectory/);
    expect(refused(file({ ...small(), voteMeans: [[0.5, 0.5, 0.5]] }))).toMatch(/voteMeans.*two rounds/);
    expect(
      refused(
        file({
          ...small(),
          voteMeans: [
            [0.5, 0.5, 2],
            [1, 1, 1],
          ],
        }),
      ),
    ).toMatch(/voteMeans\[0\]\[2\]/);
    expect(
      refused(
        file({
          ...small(),
          voteMeans: [
            [0.5, 'a', 1],
            [1, 1, 1],
          ],
        }),
      ),
    ).toMatch(/voteMeans\[0\]\[1\]/);
    expect(refused(file({ ...small(), graph: { n: 3, edges: [[0, 1, 2]] } }))).toMatch(/edges\[0\]/);
    expect(refused(file({ ...small(), id: 'has space' }))).toMatch(/\bid\b/);
    expect(refused(file({ ...small(), question: { id: 'q', kind: 'objective' } }))).toMatch(/needs "correct"/);
    expect(refused(file({ ...small(), question: { id: 'q', kind: 'subjective', correct: 1 } }))).toMatch(/no "correct"/);
    expect(refused(file(small(), small()))).toMatch(/appears twice/);
    expect(refused(file({ ...small(), graph: { n: 3, edges: [[0, 0, 1]] } }))).toMatch(/self-loop/);
    expect(
      refused(
        file({
          ...small(),
          graph: {
            n: 3,
            edges: [
              [0, 1, 1],
              [1, 0, -1],
            ],
          },
        }),
      ),
    ).toMatch(/twice/);
    expect(refused(file({ ...small(), features: [[1], [2]] }))).toMatch(/features.*2 rows/);
  });

  it('refuses an N mismatch: vote rows, edge endpoints, shared graph ids', () => {
    expect(
      refused(
        file({
          ...small(),
          voteMeans: [
            [0.2, 0.2, 0.2],
            [0.2, 0.2],
          ],
        }),
      ),
    ).toMatch(/voteMeans\[1\].*2 values.*graph\.n is 3/);
    expect(refused(file({ ...small(), graph: { n: 3, edges: [[0, 5, 1]] } }))).toMatch(/agent 5 does not exist/);
    const other = { ...small(), id: 'other', graph: { n: 3, edges: [[0, 2, 1]] } as OpinionTrajectory['graph'] };
    expect(refused(file(small(), other))).toMatch(/graphId "g0" names a different graph/);
  });

  it('refuses oversize input before parsing, and too many values', () => {
    expect(refused(' '.repeat(TRAJECTORY_LIMITS.bytes + 1))).toMatch(/capped/);
    const n = 1000;
    const big = { ...small(), graph: { n, edges: [] }, voteMeans: Array.from({ length: 65 }, () => new Array(n).fill(1)) };
    const many = Array.from({ length: 8 }, (_, k) => ({ ...big, id: `t${k}` }));
    expect(refused(file(...many))).toMatch(/more than 500,000 vote means/);
    expect(refused(file({ ...small(), voteMeans: Array.from({ length: 66 }, () => [1, 1, 1]) }))).toMatch(/voteMeans/);
  });
});

describe('trajectory CSV', () => {
  const votes = [
    'trajectory,graph,question,kind,correct,round,agent,vote_mean',
    't1,g0,q1,objective,A,0,0,0.6',
    't1,g0,q1,objective,A,0,1,-0.2',
    't1,g0,q1,objective,A,0,2,1',
    't1,g0,q1,objective,A,1,0,0.2',
    't1,g0,q1,objective,A,1,1,0.6',
    't1,g0,q1,objective,A,1,2,-1',
  ].join('\n');
  const edges = 'graph,source,target,sign\n# a comment\ng0,0,1,+\ng0,1,2,-1\n';

  it('reads votes + edges into the same trajectory as the JSON, and round-trips the writer', () => {
    const r = parseTrajectoryCsv([
      { name: 'votes.csv', text: votes },
      { name: 'edges.csv', text: edges },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.file.trajectories[0];
    expect(t.graph).toEqual(small().graph);
    expect(t.voteMeans).toEqual(small().voteMeans);
    expect(t.question).toEqual({ id: 'q1', kind: 'objective', correct: 1 });
    const syn = syntheticTrajectories({ couplings: { kind: 'one', beta: 0.5 }, seed: 'csv', graphs: 2, questions: 2, episodes: 1, agents: 6, rounds: 3 });
    const csv = trajectoriesToCsv(syn);
    const back = parseTrajectoryFiles([
      { name: 'e.csv', text: csv.edges },
      { name: 'v.csv', text: csv.votes },
      { name: 'f.csv', text: csv.features! },
    ]);
    expect(back.ok && back.file.trajectories).toEqual(syn);
  });

  it('refuses hostile and malformed CSV with the line', () => {
    const bad = (v: string, e = edges) => {
      const r = parseTrajectoryCsv([
        { name: 'votes.csv', text: v },
        { name: 'edges.csv', text: e },
      ]);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.message;
    };
    expect(bad(votes.replace('t1,g0,q1,objective,A,0,0,0.6', 't1,g0,q1,objective,A,0,0,abc'))).toMatch(/line 2: vote_mean/);
    expect(bad(votes.replace(/q1/g, '<script>x</script>'))).toMatch(/markup/);
    expect(bad(votes.replace(/t1/g, '__proto__'))).toMatch(/must not be __proto__/);
    expect(bad(votes.split('\n').slice(0, -1).join('\n'))).toMatch(/no vote_mean for round 1, agent 2/);
    expect(bad(votes, 'graph,source,target,sign\ng0,0,7,1\n')).toMatch(/agent 7 does not exist/);
    expect(bad(votes, 'graph,source,target,sign\ng9,0,1,1\n')).toMatch(/not used by any trajectory/);
    expect(bad(votes.replace('0,1,-0.2', '0,1,-0.2,extra'))).toMatch(/fields, the header has/);
    expect(bad(votes + '\nt1,g0,q1,objective,A,1,2,1')).toMatch(/twice/);
    expect(parseTrajectoryFiles([{ name: 'x.csv', text: 'a,b\n1,2' }]).ok).toBe(false);
  });
});
