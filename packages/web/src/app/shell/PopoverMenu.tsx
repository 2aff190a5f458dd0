import { Button } from 'antd';
import { cloneElement, lazy, type ReactElement, type ReactNode, Suspense, useState } from 'react';

// antd's Popover (and the Tooltip it builds on) is fetched on the first click of a menu's
// button, not with every screen's header.
const Popover = lazy(() => import('antd/es/popover'));

export interface PopoverMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  isSelected?: boolean;
}

interface Props {
  items: PopoverMenuItem[];
  onSelect: (key: string) => void;
  placement?: 'bottom' | 'bottomRight';
  /** The menu's button (one element taking a click handler). */
  children: ReactElement<{ onClick?: () => void }>;
}

/**
 * A small click menu on antd's Popover (the header's language and user menus); antd's Dropdown
 * would bring the whole Menu component into the first screen's JavaScript.
 */
export function PopoverMenu({ items, onSelect, placement = 'bottom', children }: Props) {
  const [open, setOpen] = useState(false);
  const [isArmed, setIsArmed] = useState(false);
  if (!isArmed) {
    return cloneElement(children, {
      onClick: () => {
        setIsArmed(true);
        setOpen(true);
      },
    });
  }
  return (
    <Suspense fallback={children}>
      <Popover
        trigger="click"
        placement={placement}
        open={open}
        onOpenChange={setOpen}
        arrow={false}
        styles={{ container: { padding: 4 } }}
        content={
          <div role="menu" style={{ display: 'flex', flexDirection: 'column', minWidth: 140 }}>
            {items.map((item) => (
              <Button
                key={item.key}
                role="menuitem"
                type={item.isSelected ? 'link' : 'text'}
                danger={item.danger}
                icon={item.icon}
                onClick={() => {
                  setOpen(false);
                  onSelect(item.key);
                }}
                style={{ justifyContent: 'flex-start' }}
              >
                {item.label}
              </Button>
            ))}
          </div>
        }
      >
        {children}
      </Popover>
    </Suspense>
  );
}
