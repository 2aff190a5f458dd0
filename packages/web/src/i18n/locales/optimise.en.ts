import type { OptimiseLocaleResources } from './optimise.zh-CN';

export const optimiseEn: OptimiseLocaleResources = {
  optimise: {
    nav: 'Optimisation',
    title: 'Parameter optimisation (walk-forward)',
    subtitle:
      'Backtests every combination of a parameter grid: each window judges it on in-sample candles, then tests it on the out-of-sample candles that follow. The best parameters are chosen by their out-of-sample result.',
    form: {
      strategy: 'Strategy',
      exchange: 'Exchange',
      symbol: 'Symbol',
      timeframe: 'Timeframe',
      objective: 'Objective',
      candles: 'Candles',
      inSample: 'In-sample bars',
      outOfSample: 'Out-of-sample bars',
      step: 'Window step',
      parameters: 'Parameter grid',
      vary: 'Vary',
      min: 'Min',
      max: 'Max',
      stepValue: 'Step',
      combinations: 'Combinations: {{count}} (at most {{max}})',
      tooMany: 'Too many combinations: at most {{max}}; narrow a range or take a larger step',
      noParameter: 'Choose at least one parameter to vary',
      start: 'Start optimisation',
      settings: {
        stop_loss_percentage: 'Stop-loss %',
        take_profit_percentage: 'Take-profit %',
        trailing_stop_percentage: 'Trailing stop %',
      },
    },
    objectives: {
      return: 'Total return',
      sharpe: 'Sharpe ratio',
      sortino: 'Sortino ratio',
      calmar: 'Calmar ratio',
    },
    status: {
      queued: 'Queued',
      running: 'Running',
      completed: 'Completed',
      cancelled: 'Cancelled',
      failed: 'Failed',
    },
    progress: 'Progress',
    progressCount: '{{done}} of {{total}} combinations done',
    cancel: 'Cancel optimisation',
    cancelled: 'Optimisation cancelled',
    windows: '{{count}} windows · {{candles}} candles · data: {{source}}',
    sources: { live: 'live', simulated: 'simulated' },
    skipped: '{{count}} combinations refused by the strategy (e.g. fast ≥ slow) were not run',
    best: 'Best parameters (by out-of-sample objective)',
    noBest: 'No result yet',
    inSampleObjective: 'In-sample objective',
    outOfSampleObjective: 'Out-of-sample objective',
    overfittingRatio: 'Overfitting ratio',
    overfittingHelp:
      'In-sample objective ÷ out-of-sample objective; near 1 means the parameters hold up on new data.',
    warnings: {
      overfitting_high:
        'High overfitting risk: in-sample results are far better than out-of-sample (ratio > {{limit}}); live trading may do much worse than the backtest.',
      out_of_sample_not_positive:
        'The out-of-sample objective is not positive: these parameters did not profit on unseen data. Use them with care.',
    },
    useParameters: 'Use these parameters',
    results: 'All results',
    heatMap: 'Heat map (out-of-sample objective)',
    heatX: 'Across',
    heatY: 'Down',
    heatNeedsTwo: 'The heat map needs at least two parameters',
    heatLegend:
      'Greener is better, redder is worse; each cell shows the best over the other parameters',
    columns: { rank: '#', ratio: 'Overfitting ratio' },
    errors: {
      too_many_combinations: 'Too many combinations (at most 500)',
      no_window: 'Too few candles for one in-sample + out-of-sample window',
      too_many_windows: 'Too many windows (at most 50); take a larger step',
      no_valid_combination:
        'The strategy refuses every combination of the grid (e.g. fast must be below slow)',
      empty_axis: 'The range holds no value (min ≤ max, step > 0)',
      failed: 'Failed to start the optimisation',
      loadFailed: 'Failed to load the optimisation',
    },
  },
};
