import { Button, Popover } from 'antd';
import { type ReactNode, useState } from 'react';

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
  children: ReactNode;
}

/**
 * A small click menu on antd's Popover (the header's language and user menus); antd's Dropdown
 * would bring the whole Menu component into the first screen's JavaScript.
 */
export function PopoverMenu({ items, onSelect, placement = 'bottom', children }: Props) {
  const [open, setOpen] = useState(false);
  return (
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
  );
}
