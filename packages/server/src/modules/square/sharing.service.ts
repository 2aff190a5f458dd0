import {
  FIELD_ERROR_CODES,
  SHARE_DESCRIPTION_MAX_LENGTH,
  type ShareSettings,
  type ShareSettingsUpdateRequest,
  type ShareStatusResponse,
  SQUARE_ERROR_CODES,
  SQUARE_MESSAGES,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { NotFound, ValidationFailed } from '../../common/errors.js';
import { sanitizeRichText, visibleLength } from '../../common/rich-text.js';
import type { Database } from '../../db/database.js';
import type { ExchangeAccountRow, StrategyShareSettingsRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { ShareSettingsValues, SharingRepository } from './sharing.repository.js';

const defaults = (account: ExchangeAccountRow): ShareSettingsValues => ({
  name: account.name,
  isPublic: false,
  acceptCopy: true,
  showTrades: true,
  showPositions: true,
  allowComments: true,
  showRules: false,
  description: '',
});

function toAnswer(
  account: ExchangeAccountRow,
  row: StrategyShareSettingsRow | undefined,
): ShareSettings {
  const values = row ?? defaults(account);
  return {
    account_id: account.id,
    name: values.name,
    is_public: values.isPublic,
    accept_copy: values.acceptCopy,
    show_trades: values.showTrades,
    show_positions: values.showPositions,
    allow_comments: values.allowComments,
    show_rules: values.showRules,
    copiers_count: row?.copiersCount ?? 0,
    total_copy_earnings: row ? String(Number(row.totalCopyEarnings)) : '0',
    description: values.description,
    updated_at: row?.updatedAt.toISOString() ?? null,
    published_at: row?.publishedAt?.toISOString() ?? null,
  };
}

/** Share settings of one's own exchange accounts (document 1): another user's answer 404. */
export function createSharingService(deps: {
  repo: SharingRepository;
  /** The repository on a caller's transaction (copy trading's counters). */
  repoFor?: (tx: Database) => SharingRepository;
  clock: Clock;
  events: EventBus;
  /** Recomputes the account's square figures (so a newly public account is listed at once). */
  refreshMetrics: (accountId: number) => Promise<void>;
  /** Called after settings were written (the square's cached counts are then stale). */
  onSaved?: (accountId: number) => void;
}) {
  const { repo } = deps;

  async function ownedAccount(userId: number, accountId: number): Promise<ExchangeAccountRow> {
    const account = await repo.findOwnedAccount(userId, accountId);
    if (!account)
      throw new NotFound(SQUARE_MESSAGES.accountNotFound, SQUARE_ERROR_CODES.accountNotFound);
    return account;
  }

  return {
    async status(userId: number, accountId: number): Promise<ShareStatusResponse> {
      await ownedAccount(userId, accountId);
      const row = await repo.findSettings(accountId);
      return {
        has_share_settings: row !== undefined,
        is_public: row?.isPublic ?? false,
        updated_at: row?.updatedAt.toISOString() ?? null,
      };
    },

    async get(userId: number, accountId: number): Promise<ShareSettings> {
      const account = await ownedAccount(userId, accountId);
      return toAnswer(account, await repo.findSettings(accountId));
    },

    /**
     * Partial update. The description is sanitised with the editor's allowlist and measured in
     * visible characters. Switching a public account private resets the four flags to true
     * (document 1 §4), and hides the rules again.
     */
    async update(
      userId: number,
      accountId: number,
      body: ShareSettingsUpdateRequest,
    ): Promise<ShareSettings> {
      const account = await ownedAccount(userId, accountId);
      const current = (await repo.findSettings(accountId)) ?? defaults(account);
      const next: ShareSettingsValues = {
        name: body.name ?? current.name,
        isPublic: body.is_public ?? current.isPublic,
        acceptCopy: body.accept_copy ?? current.acceptCopy,
        showTrades: body.show_trades ?? current.showTrades,
        showPositions: body.show_positions ?? current.showPositions,
        allowComments: body.allow_comments ?? current.allowComments,
        showRules: body.show_rules ?? current.showRules,
        description: current.description,
      };
      if (body.description !== undefined) {
        const clean = sanitizeRichText(body.description, 'description');
        if (visibleLength(clean) > SHARE_DESCRIPTION_MAX_LENGTH) {
          throw ValidationFailed.field(
            'description',
            SQUARE_MESSAGES.descriptionTooLong,
            FIELD_ERROR_CODES.tooLong,
          );
        }
        // An editor's empty document (<p><br></p>) is no description.
        next.description = visibleLength(clean) === 0 && !clean.includes('<img') ? '' : clean;
      }
      if (current.isPublic && !next.isPublic) {
        next.acceptCopy = true;
        next.showTrades = true;
        next.showPositions = true;
        next.allowComments = true;
        // Not one of the four: rules are private until the owner shows them again.
        next.showRules = false;
      }
      const row = await repo.save(account, next, deps.clock.now());
      deps.onSaved?.(accountId);
      await deps.events.publish('StrategySharingChanged', {
        accountId,
        isPublic: row.isPublic,
        showTrades: row.showTrades,
        showPositions: row.showPositions,
      });
      if (row.isPublic) await deps.refreshMetrics(accountId);
      return toAnswer(account, row);
    },

    /**
     * For copy trading (issue 12): a copier joined (+1) or left (−1), fees earned (coins). With
     * `tx`, inside the caller's transaction (the relation and its fee commit with the counters).
     */
    async recordCopyFigures(
      accountId: number,
      change: { copiersDelta: number; earnings: string },
      tx?: Database,
    ): Promise<void> {
      const target = tx && deps.repoFor ? deps.repoFor(tx) : repo;
      await target.adjustCopyFigures(accountId, change, deps.clock.now());
      deps.onSaved?.(accountId);
    },

    /** For copy trading: a leader account's owner and whether its strategy may be copied. */
    async copyStrategy(
      accountId: number,
    ): Promise<{ userId: number; isPublic: boolean; acceptCopy: boolean } | undefined> {
      const row = await repo.findSettings(accountId);
      return row && { userId: row.userId, isPublic: row.isPublic, acceptCopy: row.acceptCopy };
    },
  };
}
export type SharingService = ReturnType<typeof createSharingService>;
