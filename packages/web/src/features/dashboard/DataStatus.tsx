import type { DataFreshness } from '@quantsquare/contracts';
import { useTranslation } from 'react-i18next';
import { HintTooltip } from '../../shared/ui/HintTooltip';
import { Pill, Text, type Tone } from '../../shared/ui/ui';
import type { SourceState } from './source-state';

const SOURCE_COLORS: Record<SourceState, Tone> = {
  live: 'success',
  delayed: 'warning',
  simulated: 'secondary',
};

export function SourceIndicator({ state }: { state: SourceState | null }) {
  const { t } = useTranslation();
  if (!state) return null;
  return (
    <HintTooltip title={t(`dashboard.source.${state}Hint`)}>
      <Pill
        data-testid="dashboard-source"
        data-source={state}
        color={SOURCE_COLORS[state]}
        style={{ marginInlineEnd: 0 }}
      >
        {t(`dashboard.source.${state}`)}
      </Pill>
    </HintTooltip>
  );
}

interface FreshnessProps {
  freshness: DataFreshness | undefined;
  isLoading: boolean;
  isError: boolean;
}

/** The spec's freshness texts (document 1 §8). */
export function FreshnessText({ freshness, isLoading, isError }: FreshnessProps) {
  const { t } = useTranslation();
  let type: Tone = 'secondary';
  let text: string = t('dashboard.freshness.checking');
  let state = 'loading';
  if (isError) {
    type = 'danger';
    text = t('dashboard.freshness.failed');
    state = 'failed';
  } else if (freshness) {
    const delay = Math.round(freshness.delay_seconds);
    if (freshness.is_fresh) {
      type = 'success';
      text = t('dashboard.freshness.fresh', { delay });
      state = 'fresh';
    } else {
      type = 'warning';
      text = t('dashboard.freshness.stale', {
        delay,
        max: Math.round(freshness.max_allowed_delay),
      });
      state = 'stale';
    }
  } else if (!isLoading) {
    text = t('dashboard.freshness.failed');
    type = 'danger';
    state = 'failed';
  }
  return (
    <Text data-testid="freshness" data-state={state} tone={type}>
      {text}
    </Text>
  );
}
