import {
  RULE_LIMITS,
  RULE_SLOTS,
  type RuleSlot,
  type UserStrategy,
  type UserStrategyPayload,
} from '@quantsquare/contracts';
import { App } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { fieldErrorText } from '../../api/field-errors';
import type { useDeleteUserStrategy, useSaveUserStrategy } from '../../api/user-strategies';
import { type EditableRules, editableFrom, type Problem, starterRules } from './rule-model';

export interface Draft {
  name: string;
  description: string;
  stopLoss: number | null;
  takeProfit: number | null;
  trailingStop: number | null;
  rules: EditableRules;
}

export interface ServerError {
  field: string;
  text: string;
}

const newDraft = (): Draft => ({
  name: '',
  description: '',
  stopLoss: null,
  takeProfit: null,
  trailingStop: null,
  rules: starterRules(),
});

const draftOf = (strategy: UserStrategy): Draft => ({
  name: strategy.name,
  description: strategy.description,
  stopLoss: strategy.stop_loss_pct,
  takeProfit: strategy.take_profit_pct,
  trailingStop: strategy.trailing_stop_pct,
  rules: editableFrom(strategy.rules),
});

const payloadOf = (draft: Draft): UserStrategyPayload => ({
  name: draft.name.trim(),
  description: draft.description.trim(),
  rules: draft.rules,
  stop_loss_pct: draft.stopLoss,
  take_profit_pct: draft.takeProfit,
  trailing_stop_pct: draft.trailingStop,
});

/** The slot a server field (`rules.entry_long.all.0.op`) belongs to, or null for the whole set. */
function slotOfField(field: string): RuleSlot | null {
  const slot = field.split('.')[1];
  return RULE_SLOTS.find((name) => name === slot) ?? null;
}

/**
 * The strategy being edited: the one picked (or a new one), its draft, the draft as last saved,
 * whether its problems show, and the server's refusals of its last save.
 */
export function useStrategyDraft(strategies: readonly UserStrategy[] | undefined) {
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(newDraft);
  const [savedDraft, setSavedDraft] = useState<Draft | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerError[]>([]);

  const pick = (id: number | null) => {
    const strategy = strategies?.find((s) => s.id === id) ?? null;
    const next = strategy ? draftOf(strategy) : newDraft();
    setSelectedId(strategy?.id ?? null);
    setDraft(next);
    setSavedDraft(strategy ? next : null);
    setShowProblems(false);
    setServerErrors([]);
  };
  const setRules = (slot: RuleSlot, value: EditableRules[RuleSlot]) =>
    setDraft((current) => ({ ...current, rules: { ...current.rules, [slot]: value } }));
  /** Shows the saved strategy as the one picked and unchanged. */
  const markSaved = (strategy: UserStrategy) => {
    const next = draftOf(strategy);
    setSelectedId(strategy.id);
    setDraft(next);
    setSavedDraft(next);
    setShowProblems(false);
  };

  return {
    selectedId,
    draft,
    setDraft,
    saved: strategies?.find((s) => s.id === selectedId) ?? null,
    isDirty: savedDraft === null || JSON.stringify(savedDraft) !== JSON.stringify(draft),
    showProblems,
    setShowProblems,
    serverErrors,
    setServerErrors,
    pick,
    setRules,
    markSaved,
  };
}

export type StrategyDraft = ReturnType<typeof useStrategyDraft>;

/** A refusal's text in the builder's own words for its code, else the usual one. */
function refusalText(t: TFunction, error: unknown, code: string, fallback: string): string {
  const own = t(`builder.codes.${code}` as never, { defaultValue: '' });
  return own || errorMessage(t, error, fallback);
}

/**
 * Saving: nothing is sent while the name or the rules have problems (they show instead); a
 * refusal's field errors go under their slots, any other refusal is one message.
 */
export function useSaveStrategy(
  state: StrategyDraft,
  canSave: boolean,
  save: ReturnType<typeof useSaveUserStrategy>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return () => {
    state.setShowProblems(true);
    state.setServerErrors([]);
    if (!canSave) {
      void message.error(t('builder.fixFirst'));
      return;
    }
    save.mutate(
      { id: state.selectedId, body: payloadOf(state.draft) },
      {
        onSuccess: (strategy) => {
          void message.success(t('builder.saved'));
          state.markSaved(strategy);
        },
        onError: (error) => {
          const body = error instanceof ApiRequestError ? error.body : null;
          const fields = body?.fields ?? {};
          const codes = body?.field_codes ?? {};
          const list = Object.entries(fields).map(([field, messages]) => {
            const code = codes[field]?.[0];
            const own = code ? t(`builder.codes.${code}` as never, { defaultValue: '' }) : '';
            return {
              field,
              text: own || fieldErrorText(t, field, code, messages[0] ?? ''),
            };
          });
          if (list.length > 0) state.setServerErrors(list);
          else void message.error(refusalText(t, error, body?.code ?? '', t('builder.saveFailed')));
        },
      },
    );
  };
}

/** Deleting the saved strategy, then starting a new one. */
export function useDeleteStrategy(
  state: StrategyDraft,
  remove: ReturnType<typeof useDeleteUserStrategy>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (id: number) =>
    remove.mutate(id, {
      onSuccess: () => {
        void message.success(t('builder.deleted'));
        state.pick(null);
      },
      onError: (error) => {
        const code = error instanceof ApiRequestError ? (error.body?.code ?? '') : '';
        void message.error(refusalText(t, error, code, t('builder.deleteFailed')));
      },
    });
}

/** The texts under each slot (its problems, then the server's refusals) and under the rules. */
export function ruleMessages(
  t: TFunction,
  problems: readonly Problem[],
  serverErrors: readonly ServerError[],
  leaves: number,
) {
  const forSlot = (slot: RuleSlot) => [
    ...problems
      .filter((p) => p.path === slot || p.path.startsWith(`${slot}.`))
      .map((p) =>
        t(`builder.problems.${p.key}`, {
          min: 1,
          max: p.key === 'offsetRange' ? RULE_LIMITS.maxOffset : RULE_LIMITS.maxPeriod,
        }),
      ),
    ...serverErrors.filter((e) => slotOfField(e.field) === slot).map((e) => e.text),
  ];
  const general = [
    ...(leaves > RULE_LIMITS.maxLeaves
      ? [t('builder.problems.tooManyLeaves', { max: RULE_LIMITS.maxLeaves })]
      : []),
    ...serverErrors
      .filter((e) => e.field.startsWith('rules') && slotOfField(e.field) === null)
      .map((e) => e.text),
  ];
  return { forSlot, general };
}
