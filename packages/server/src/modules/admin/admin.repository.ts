import { isNotNull, or } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { adminActions, exchangeAccounts, users } from '../../db/schema/index.js';
import { setStoredAccountKey } from '../accounts/account-records.service.js';
import { userRecordsOn } from '../auth/user-records.service.js';
import type { StoredSecret } from './secret-rotation.js';

/** Every encrypted column: table, id column and the column, as `where` names them. */
const USER_SECRET_COLUMNS = {
  totp_secret: users.totpSecret,
  totp_pending_secret: users.totpPendingSecret,
} as const;
const ACCOUNT_SECRET_COLUMNS = {
  api_key_encrypted: exchangeAccounts.apiKeyEncrypted,
  api_secret_encrypted: exchangeAccounts.apiSecretEncrypted,
  api_password_encrypted: exchangeAccounts.apiPasswordEncrypted,
} as const;
const USER_FIELDS = {
  totp_secret: 'totpSecret',
  totp_pending_secret: 'totpPendingSecret',
} as const;
const ACCOUNT_FIELDS = {
  api_key_encrypted: 'apiKeyEncrypted',
  api_secret_encrypted: 'apiSecretEncrypted',
  api_password_encrypted: 'apiPasswordEncrypted',
} as const;
type UserColumn = keyof typeof USER_FIELDS;
type AccountColumn = keyof typeof ACCOUNT_FIELDS;

const isUserColumn = (c: string): c is UserColumn => c in USER_FIELDS;
const isAccountColumn = (c: string): c is AccountColumn => c in ACCOUNT_FIELDS;

export function createAdminRepository(db: Database) {
  return {
    async recordAction(values: {
      action: string;
      targetUserId: number | null;
      changes: Record<string, unknown>;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(adminActions).values(values);
    },
    /** Every stored encrypted value, named `table.column#id`. */
    async storedSecrets(): Promise<StoredSecret[]> {
      const found: StoredSecret[] = [];
      const userRows = await db
        .select({ id: users.id, ...USER_SECRET_COLUMNS })
        .from(users)
        .where(or(...Object.values(USER_SECRET_COLUMNS).map((c) => isNotNull(c))));
      for (const row of userRows) {
        for (const column of Object.keys(USER_SECRET_COLUMNS) as UserColumn[]) {
          const stored = row[column];
          if (stored !== null) found.push({ where: `users.${column}#${row.id}`, stored });
        }
      }
      const accountRows = await db
        .select({ id: exchangeAccounts.id, ...ACCOUNT_SECRET_COLUMNS })
        .from(exchangeAccounts)
        .where(or(...Object.values(ACCOUNT_SECRET_COLUMNS).map((c) => isNotNull(c))));
      for (const row of accountRows) {
        for (const column of Object.keys(ACCOUNT_SECRET_COLUMNS) as AccountColumn[]) {
          const stored = row[column];
          if (stored !== null)
            found.push({ where: `exchange_accounts.${column}#${row.id}`, stored });
        }
      }
      return found;
    },
    /** Writes new stored forms (keyed as storedSecrets names them) in one transaction. */
    async replaceSecrets(values: ReadonlyMap<string, string>): Promise<void> {
      await db.transaction(async (tx) => {
        for (const [where, stored] of values) {
          const match = /^(users|exchange_accounts)\.(\w+)#(\d+)$/.exec(where);
          const [, table, column, idText] = match ?? [];
          const id = Number(idText);
          if (table === 'users' && column && isUserColumn(column)) {
            await userRecordsOn(tx).setStoredSecret(id, USER_FIELDS[column], stored);
          } else if (table === 'exchange_accounts' && column && isAccountColumn(column)) {
            await setStoredAccountKey(tx, id, ACCOUNT_FIELDS[column], stored);
          } else {
            throw new Error(`Unknown secret location ${where}`);
          }
        }
      });
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;
