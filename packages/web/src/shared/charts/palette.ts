/** Chart colours, taken from the antd theme so the charts follow dark and light mode. */
export interface ChartPalette {
  background: string;
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  maFast: string;
  maSlow: string;
  /** Bollinger bands (outer lines) and their middle line. */
  band: string;
  bandMiddle: string;
  /** The RSI or MACD line, and the MACD's signal line. */
  oscillator: string;
  signalLine: string;
  equity: string;
}

interface ThemeColors {
  colorBgContainer: string;
  colorTextSecondary: string;
  colorBorderSecondary: string;
  colorSuccess: string;
  colorError: string;
  colorWarning: string;
  colorPrimary: string;
}

export function chartPalette(token: ThemeColors): ChartPalette {
  return {
    background: token.colorBgContainer,
    text: token.colorTextSecondary,
    grid: token.colorBorderSecondary,
    border: token.colorBorderSecondary,
    up: '#26a69a',
    down: '#ef5350',
    maFast: token.colorWarning,
    maSlow: '#9254de',
    band: '#13a8a8',
    bandMiddle: token.colorWarning,
    oscillator: '#9254de',
    signalLine: token.colorWarning,
    equity: token.colorPrimary,
  };
}
