import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { COPY_FEE_COINS } from '@quantsquare/contracts';
import { Button } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useIsLoggedIn } from '../../api/tokens';
import { copyButtonState } from '../../shared/format/square-format';

interface Props {
  acceptsCopy: boolean;
  isOwner: boolean;
  isCopying: boolean;
  /** What a signed-in viewer's click does (the copy modal, or the strategy page from a card). */
  onCopy: () => void;
  /** The card's short label, or the detail page's label with the fee. */
  variant: 'card' | 'detail';
  block?: boolean;
}

/**
 * The Copy Trade button (document 2 §2): shown only when the strategy accepts copying and the
 * viewer is not its owner; a visitor's click goes to /login; a viewer who already copies gets
 * Already Copying, which leads to /my/copy-trading.
 */
export function CopyTradeButton({
  acceptsCopy,
  isOwner,
  isCopying,
  onCopy,
  variant,
  block,
}: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isLoggedIn = useIsLoggedIn();
  const state = copyButtonState({ acceptsCopy, isOwner, isLoggedIn, isCopying });
  if (state === 'hidden') return null;
  // On a card the button sits inside the clickable card: the card must not also open.
  const click = (action: () => void) => (event: MouseEvent) => {
    event.stopPropagation();
    action();
  };
  if (state === 'copying') {
    return (
      <Button
        icon={<CheckOutlined />}
        block={block}
        onClick={click(() => navigate('/my/copy-trading'))}
        data-testid="copy-trade-copying"
      >
        {t('strategy.alreadyCopying')}
      </Button>
    );
  }
  return (
    <Button
      type="primary"
      icon={<CopyOutlined />}
      block={block}
      size={variant === 'card' ? 'small' : 'middle'}
      onClick={click(state === 'login' ? () => navigate('/login') : onCopy)}
      data-testid="copy-trade"
    >
      {variant === 'card'
        ? t('square.card.copyTrade')
        : t('strategy.copyTrade', { fee: COPY_FEE_COINS })}
    </Button>
  );
}
