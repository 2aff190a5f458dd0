import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';
import { initialOf } from '../format/square-format';

interface Props {
  url: string | null | undefined;
  name: string;
  size?: number;
}

/** A user's picture, or the initial of their name on a coloured disc when they have none. */
export function UserAvatar({ url, name, size = 32 }: Props) {
  if (url) return <Avatar src={url} alt={name} size={size} style={{ flex: 'none' }} />;
  const initial = initialOf(name);
  return (
    <Avatar
      size={size}
      icon={initial ? undefined : <UserOutlined />}
      style={{ flex: 'none', background: '#1668dc', fontWeight: 600 }}
    >
      {initial || undefined}
    </Avatar>
  );
}
