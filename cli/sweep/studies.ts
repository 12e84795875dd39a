/** Reading and writing study records in Redis, checked on the way in and out. */
import type { Redis } from 'ioredis';
import { STUDIES_KEY, studyKeys, studySchema, type Study } from './study.ts';

export class StudyError extends Error {}

export async function saveStudy(redis: Redis, study: Study): Promise<void> {
  const created = await redis.set(studyKeys(study.id).study, JSON.stringify(study), 'NX');
  if (created !== 'OK') throw new StudyError(`a study with id ${study.id} exists already`);
  await redis.sadd(STUDIES_KEY, study.id);
}

export async function readStudy(redis: Redis, id: string): Promise<Study> {
  if (!/^run-[a-z0-9]+-[a-z0-9]+$/.test(id))
    throw new StudyError(`"${id.slice(0, 80)}" is not a study id (they look like run-mh2k3x-0a1b2c, as sweep submit printed)`);
  const raw = await redis.get(studyKeys(id).study);
  if (raw === null) throw new StudyError(`no study ${id} on this Redis (sweep submit prints the id; is it the same --redis?)`);
  try {
    return studySchema.parse(JSON.parse(raw));
  } catch (e) {
    throw new StudyError(`study ${id} is stored in a form this version cannot read: ${(e as Error).message.slice(0, 300)}`);
  }
}

export async function listStudyIds(redis: Redis): Promise<string[]> {
  return (await redis.smembers(STUDIES_KEY)).sort();
}
