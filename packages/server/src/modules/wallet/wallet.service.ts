import { randomUUID } from 'node:crypto';
import {
  type CoinBalanceQuery,
  type CoinBalanceResponse,
  type DepositInfoResponse,
  type DepositRequest,
  type DepositResponse,
  MAX_PENDING_DEPOSITS,
  maskEmail,
  maskPhone,
  type PurchaseVipRequest,
  type PurchaseVipResponse,
  REFERRAL_BONUS_RATE,
  VIP_DURATION_DAYS,
  VIP_FEATURES,
  VIP_PRICE_COINS,
  VIP_PROMO_PRICE_COINS,
  type VipInfo,
  vipPriceFor,
  WALLET_ERROR_CODES,
  WALLET_MESSAGES,
  WITHDRAW_FEE_USDT,
  type WithdrawRequest,
  type WithdrawResponse,
} from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import {
  BadRequest,
  Conflict,
  InsufficientBalance,
  NotFound,
  ValidationFailed,
} from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { UserRow } from '../../db/schema/index.js';
import { toProfile } from '../auth/auth.mappers.js';
import type { StepUp } from '../auth/step-up.js';
import { isChainAddress } from './chain-addresses.js';
import type { DepositNetworks } from './deposit-networks.js';
import type { Ledger } from './ledger.js';
import { fixed8, toWalletTransaction } from './wallet.mappers.js';
import { type HolderRow, type WalletQueries, walletQueries } from './wallet.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The business keys of the user-facing operations (unique in wallet_transactions). */
export const walletKeys = {
  /** The same hash can be declared once, by anyone. */
  chainDeposit: (hash: string) => `deposit:${hash.toLowerCase()}`,
  offchainDeposit: () => `deposit:offchain:${randomUUID()}`,
  withdraw: (userId: number, requestId: string | undefined) =>
    requestId ? `withdraw:${userId}:${requestId}` : `withdraw:${randomUUID()}`,
  vipPurchase: (userId: number, requestId: string | undefined) =>
    requestId ? `vip:${userId}:${requestId}` : `vip:${userId}:${randomUUID()}`,
  /** One referral bonus per invitee, whatever they buy later. */
  referralBonus: (inviteeId: number) => `referral:${inviteeId}`,
};

const whoOf = (user: Pick<UserRow, 'email' | 'phone' | 'id'>) =>
  user.email ? maskEmail(user.email) : user.phone ? maskPhone(user.phone) : `user ${user.id}`;

/** What the wallet service works with. */
export interface WalletServiceDeps {
  db: Database;
  clock: Clock;
  ledger: Ledger;
  networks: DepositNetworks;
  /** A withdrawal of a user with 2FA on needs an authenticator code. */
  stepUp: StepUp;
}

async function loadUser(q: WalletQueries, userId: number): Promise<HolderRow> {
  const user = await q.findUser(userId);
  if (!user) throw new NotFound('User not found');
  return user;
}

/** The coin balance, deposit details and deposits. */
function coinFlows(deps: WalletServiceDeps) {
  const { db, ledger, networks } = deps;
  const q = walletQueries(db);

  return {
    /** GET /auth/balance/: the balance and the user's rows, latest first. */
    async balance(userId: number, query: CoinBalanceQuery): Promise<CoinBalanceResponse> {
      const user = await loadUser(q, userId);
      const { rows, count } = await q.listForUser(userId, {
        type: query.type,
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      return {
        balance: fixed8(user.platformBalance),
        transactions: rows.map(toWalletTransaction),
        count,
        page: query.page,
        page_size: query.page_size,
      };
    },

    depositInfo(): DepositInfoResponse {
      return networks.info;
    },

    /** A pending deposit request; staff approve it (credit) or reject it. */
    async deposit(userId: number, request: DepositRequest): Promise<DepositResponse> {
      const network = networks.get(request.network);
      if (!network)
        throw ValidationFailed.field(
          'network',
          WALLET_MESSAGES.networkUnavailable,
          WALLET_ERROR_CODES.networkUnavailable,
        );
      if (new Decimal(request.amount).lt(network.min_amount)) {
        throw ValidationFailed.field(
          'amount',
          WALLET_MESSAGES.belowMinimumDeposit,
          WALLET_ERROR_CODES.belowMinimumDeposit,
        );
      }
      // An anti-spam bound, not an invariant: concurrent requests may pass it together.
      if ((await q.countOpen(userId, 'deposit')) >= MAX_PENDING_DEPOSITS) {
        throw new BadRequest(
          WALLET_ERROR_CODES.tooManyPendingDeposits,
          WALLET_MESSAGES.tooManyPendingDeposits,
        );
      }
      const onChain = request.network !== 'OFFCHAIN';
      const txHash = onChain ? request.tx_hash?.toLowerCase() : undefined;
      const receipt = await ledger.credit({
        userId,
        type: 'deposit',
        amount: request.amount,
        status: 'pending',
        businessKey: txHash ? walletKeys.chainDeposit(txHash) : walletKeys.offchainDeposit(),
        network: request.network,
        txHash,
        isOffchain: !onChain,
        offchainReference: request.offchain_reference,
      });
      if (!receipt.applied)
        throw ValidationFailed.field(
          'tx_hash',
          WALLET_MESSAGES.txHashUsed,
          WALLET_ERROR_CODES.txHashUsed,
        );
      return {
        message: WALLET_MESSAGES.depositSubmitted,
        transaction: toWalletTransaction(receipt.transaction),
      };
    },
  };
}

/** Withdrawals: checked, stepped up and written to the ledger for review. */
function withdrawFlows(deps: WalletServiceDeps) {
  const { db, ledger, stepUp } = deps;
  const q = walletQueries(db);

  return {
    /**
     * Debits the whole amount now (pending); amount − 1 USDT is paid out when staff complete it,
     * and failing it refunds. The same request_id is acted on once. A user with 2FA on confirms
     * a new withdrawal with an authenticator code (`address`: the client's, for its lock).
     */
    async withdraw(
      userId: number,
      request: WithdrawRequest,
      address: string,
    ): Promise<WithdrawResponse> {
      if (!isChainAddress(request.network, request.address)) {
        throw ValidationFailed.field(
          'address',
          WALLET_MESSAGES.addressInvalid,
          WALLET_ERROR_CODES.addressInvalid,
        );
      }
      // A retry of a request already made moves nothing: it is answered without a new code.
      const earlier = request.request_id
        ? await q.findByKey(walletKeys.withdraw(userId, request.request_id))
        : undefined;
      if (!earlier) await stepUp.confirm(userId, request.google_code, address);
      const invalidAmount = () =>
        ValidationFailed.field(
          'amount',
          WALLET_MESSAGES.invalidWithdrawalAmount,
          WALLET_ERROR_CODES.invalidWithdrawalAmount,
        );
      const receipt = await ledger.debit(
        {
          userId,
          type: 'withdraw',
          amount: request.amount,
          status: 'pending',
          fee: WITHDRAW_FEE_USDT,
          businessKey: walletKeys.withdraw(userId, request.request_id),
          network: request.network,
          address: request.address,
        },
        { insufficient: invalidAmount },
      );
      const row = receipt.transaction;
      if (
        !receipt.applied &&
        (row.userId !== userId ||
          !new Decimal(row.amount).eq(request.amount) ||
          row.address !== request.address ||
          row.network !== request.network)
      ) {
        throw new Conflict(WALLET_MESSAGES.requestIdReused, WALLET_ERROR_CODES.requestIdReused);
      }
      return {
        message: WALLET_MESSAGES.withdrawalSubmitted,
        transaction: toWalletTransaction(row),
      };
    },
  };
}

/** VIP: the offer and its purchase. */
function vipFlows(deps: WalletServiceDeps) {
  const { db, clock, ledger } = deps;
  const q = walletQueries(db);

  return {
    async vipInfo(userId: number): Promise<VipInfo> {
      const user = await loadUser(q, userId);
      const price = vipPriceFor(user.platformBalance, await q.hasBoughtVip(userId));
      const now = clock.now();
      return {
        price: fixed8(price),
        original_price: fixed8(VIP_PRICE_COINS),
        promotional_price: fixed8(VIP_PROMO_PRICE_COINS),
        is_promotional: price !== VIP_PRICE_COINS,
        duration_days: VIP_DURATION_DAYS,
        features: [...VIP_FEATURES],
        is_vip_active: user.isVip && user.vipExpiresAt !== null && user.vipExpiresAt > now,
        vip_expires_at: user.vipExpiresAt?.toISOString() ?? null,
      };
    },

    /**
     * Buys 365 days of VIP at 100 (1 for a first purchase with a balance under 100), extending an
     * active VIP from its expiry. The inviter's bonus (50% of the price paid, once per invitee)
     * is written in the same transaction. A repeated request_id answers without charging again.
     */
    async purchaseVip(userId: number, request: PurchaseVipRequest): Promise<PurchaseVipResponse> {
      const buyer = await loadUser(q, userId);
      const key = walletKeys.vipPurchase(userId, request?.request_id);
      return ledger.transaction(async (ops, tx) => {
        const inTx = walletQueries(tx);
        const balances = await ops.lock(
          buyer.invitedById === null ? [userId] : [userId, buyer.invitedById],
        );
        const earlier = await ops.findByKey(key);
        let pricePaid: Decimal.Value;
        if (earlier) {
          if (earlier.userId !== userId || earlier.type !== 'vip_purchase') {
            throw new Conflict(WALLET_MESSAGES.requestIdReused, WALLET_ERROR_CODES.requestIdReused);
          }
          pricePaid = earlier.amount;
        } else {
          const balance = balances.get(userId) ?? '0';
          // Under the buyer's lock: two first purchases at once cannot both get the offer.
          const price = vipPriceFor(balance, await inTx.hasBoughtVip(userId));
          if (
            request?.expected_price !== undefined &&
            !new Decimal(request.expected_price).eq(price)
          ) {
            throw new Conflict(WALLET_MESSAGES.vipPriceChanged, WALLET_ERROR_CODES.priceChanged);
          }
          const insufficient = () => new InsufficientBalance(WALLET_MESSAGES.insufficientBalance);
          if (new Decimal(balance).lt(price)) throw insufficient();
          const now = clock.now();
          const current = await inTx.findUser(userId);
          const activeUntil =
            current?.isVip && current.vipExpiresAt && current.vipExpiresAt > now
              ? current.vipExpiresAt
              : now;
          const expiresAt = new Date(activeUntil.getTime() + VIP_DURATION_DAYS * DAY_MS);
          await ops.debit(
            {
              userId,
              type: 'vip_purchase',
              amount: price,
              businessKey: key,
              note: `VIP until ${expiresAt.toISOString()}`,
            },
            { insufficient },
          );
          await inTx.setVip(userId, expiresAt);
          if (buyer.invitedById !== null) {
            await ops.credit({
              userId: buyer.invitedById,
              type: 'referral_bonus',
              amount: new Decimal(price).times(REFERRAL_BONUS_RATE),
              businessKey: walletKeys.referralBonus(userId),
              counterpartyUserId: userId,
              note: `Referral bonus: ${whoOf(buyer)} bought VIP`,
            });
          }
          pricePaid = price;
        }
        const updated = await inTx.findUser(userId);
        if (!updated) throw new NotFound('User not found');
        return {
          ...toProfile(updated, updated.platformBalance, clock.now()),
          price_paid: fixed8(pricePaid),
          message: WALLET_MESSAGES.vipActivated,
        };
      });
    },
  };
}

export function createWalletService(deps: WalletServiceDeps) {
  return {
    ...coinFlows(deps),
    ...withdrawFlows(deps),
    ...vipFlows(deps),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
