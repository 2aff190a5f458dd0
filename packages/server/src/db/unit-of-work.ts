import type { Database } from './database.js';

// Repositories bound to a transaction (the pattern of paper.repository.ts, generalised): a
// service that writes several rows — perhaps of several modules, each through that module's own
// repository or service — gets them all bound to one transaction, so the rows are written
// together or not at all.

/** Runs `work` in one transaction with the scope's repositories bound to it. */
export type UnitOfWork<Scope> = <T>(work: (scope: Scope) => Promise<T>) => Promise<T>;

/** `bind` builds the scope's repositories on a database or a transaction alike. */
export function unitOfWork<Scope>(db: Database, bind: (db: Database) => Scope): UnitOfWork<Scope> {
  return (work) => db.transaction((tx) => work(bind(tx)));
}
