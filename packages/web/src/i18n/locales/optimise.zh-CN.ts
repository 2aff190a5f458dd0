// Texts of the parameter optimisation screen (/my/optimise), loaded with that screen only.
// `optimise.en.ts` must have exactly the same keys.
export const optimiseZhCN = {
  optimise: {
    nav: '参数优化',
    title: '参数优化（滚动窗口）',
    subtitle:
      '在一组参数上逐一回测：每个窗口先用样本内数据评估，再用紧随其后的样本外数据检验。以样本外表现选出最佳参数。',
    form: {
      strategy: '策略',
      exchange: '交易所',
      symbol: '交易对',
      timeframe: '周期',
      objective: '优化目标',
      candles: 'K 线数量',
      inSample: '样本内 K 线',
      outOfSample: '样本外 K 线',
      step: '窗口步长',
      parameters: '参数网格',
      vary: '优化',
      min: '最小',
      max: '最大',
      stepValue: '步长',
      combinations: '组合数：{{count}}（最多 {{max}}）',
      tooMany: '组合过多：最多 {{max}} 个，请缩小范围或加大步长',
      noParameter: '至少选择一个要优化的参数',
      start: '开始优化',
      settings: {
        stop_loss_percentage: '止损 %',
        take_profit_percentage: '止盈 %',
        trailing_stop_percentage: '移动止损 %',
      },
    },
    objectives: {
      return: '总收益率',
      sharpe: '夏普比率',
      sortino: '索提诺比率',
      calmar: '卡玛比率',
    },
    status: {
      queued: '排队中',
      running: '运行中',
      completed: '已完成',
      cancelled: '已取消',
      failed: '失败',
    },
    progress: '进度',
    progressCount: '已完成 {{done}} / {{total}} 个组合',
    cancel: '取消优化',
    cancelled: '优化已取消',
    windows: '{{count}} 个窗口 · {{candles}} 根 K 线 · 数据：{{source}}',
    sources: { live: '实时', simulated: '模拟' },
    skipped: '{{count}} 个组合被策略拒绝（如快线 ≥ 慢线），未运行',
    best: '最佳参数（按样本外目标）',
    noBest: '尚无结果',
    inSampleObjective: '样本内目标',
    outOfSampleObjective: '样本外目标',
    overfittingRatio: '过拟合比率',
    overfittingHelp: '样本内目标 ÷ 样本外目标；接近 1 表示参数在新数据上依然有效。',
    warnings: {
      overfitting_high:
        '过拟合风险高：样本内表现远好于样本外（比率 > {{limit}}），实盘效果可能远不如回测。',
      out_of_sample_not_positive:
        '样本外目标不为正：这些参数在未见过的数据上没有盈利，请谨慎使用。',
    },
    useParameters: '使用这些参数',
    results: '全部结果',
    heatMap: '热力图（样本外目标）',
    heatX: '横轴',
    heatY: '纵轴',
    heatNeedsTwo: '热力图需要至少两个参数',
    heatLegend: '颜色越绿越好，越红越差；每格取其余参数中的最佳值',
    columns: { rank: '#', ratio: '过拟合比率' },
    errors: {
      too_many_combinations: '组合过多（最多 500 个）',
      no_window: 'K 线数量不足以容纳一个样本内 + 样本外窗口',
      too_many_windows: '窗口过多（最多 50 个），请加大步长',
      no_valid_combination: '策略拒绝网格中的所有组合（如快线须小于慢线）',
      empty_axis: '范围内没有取值（最小 ≤ 最大，步长 > 0）',
      failed: '启动优化失败',
      loadFailed: '加载优化结果失败',
    },
  },
} as const;

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language must fill. */
export type OptimiseLocaleResources = Widen<typeof optimiseZhCN>;
