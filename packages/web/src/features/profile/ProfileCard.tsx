import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import {
  AVATAR_ACCEPT,
  BIO_MAX_LENGTH,
  maskPhone,
  NICKNAME_MAX_LENGTH,
  type OwnProfile,
  type Profile,
} from '@quantsquare/contracts';
import { App, Avatar, Button, Descriptions, Flex, Form, Input, Typography } from 'antd';
import { type ChangeEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteAvatar, useUpdateProfile, useUploadAvatar } from '../../api/profile';
import { walletErrorMessage, walletFieldErrors } from '../../shared/errors/wallet-errors';
import { initialOf } from '../../shared/format/square-format';
import { formatDateUtc8 } from '../../shared/format/wallet-format';
import { avatarFileProblem } from './avatar-file';
import { ProfileStats } from './ProfileStats';

interface ProfileValues {
  nickname: string;
  bio: string;
}

/** The avatar, with upload (checked for size and type first) and removal. */
function AvatarEditor({ own, user }: { own: OwnProfile; user: Profile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const remove = useDeleteAvatar();

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a failure.
    event.target.value = '';
    if (!file) return;
    const problem = avatarFileProblem(file);
    if (problem === 'tooLarge') {
      void message.error(t('wallet.errors.fileTooLarge'));
      return;
    }
    if (problem === 'unsupported') {
      void message.error(t('wallet.errors.unsupportedFormat'));
      return;
    }
    upload.mutate(file, {
      onSuccess: () => void message.success(t('settings.avatarUploaded')),
      onError: (error) =>
        void message.error(walletErrorMessage(t, error, t('settings.avatarUploadFailed'))),
    });
  };

  const removeAvatar = () =>
    remove.mutate(undefined, {
      onSuccess: () => void message.success(t('settings.avatarRemoved')),
      onError: (error) =>
        void message.error(walletErrorMessage(t, error, t('settings.avatarRemoveFailed'))),
    });

  // A phone user without a nickname has no letter to show: the person icon stands in.
  const initial = initialOf(own.nickname || user.email);
  return (
    <Flex gap={16} align="center" wrap>
      <Avatar
        size={72}
        src={own.avatar_url ?? undefined}
        icon={own.avatar_url || initial ? undefined : <UserOutlined />}
        data-testid="profile-avatar"
      >
        {initial || undefined}
      </Avatar>
      <Flex vertical gap={6} style={{ minWidth: 0 }}>
        <Flex gap={8} wrap>
          <Button
            icon={<UploadOutlined />}
            loading={upload.isPending}
            onClick={() => fileInput.current?.click()}
            data-testid="profile-avatar-upload"
          >
            {own.avatar_url ? t('settings.changeAvatar') : t('settings.uploadAvatar')}
          </Button>
          {own.avatar_url && (
            <Button
              icon={<DeleteOutlined />}
              loading={remove.isPending}
              onClick={removeAvatar}
              data-testid="profile-avatar-remove"
            >
              {t('settings.removeAvatar')}
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('settings.avatarHint')}
        </Typography.Text>
        <input
          ref={fileInput}
          type="file"
          accept={AVATAR_ACCEPT}
          hidden
          onChange={chooseFile}
          data-testid="profile-avatar-input"
        />
      </Flex>
    </Flex>
  );
}

/** The account's identifiers, the phone's middle four digits masked, and when it joined. */
function ProfileIdentifiers({ own, user }: { own: OwnProfile; user: Profile }) {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} size="small">
      <Descriptions.Item label={t('settings.email')}>
        <span data-testid="profile-email">{user.email ?? t('settings.notSet')}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.phone')}>
        <span data-testid="profile-phone">
          {user.phone ? maskPhone(user.phone) : t('settings.notSet')}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.joined')}>
        {formatDateUtc8(own.created_at)}
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * Avatar (checked for size and type before upload), nickname, bio with its counter, the square's
 * stats and the account's identifiers with the phone's middle four digits masked (§2, §5, §8).
 */
export function ProfileCard({ own, user }: { own: OwnProfile; user: Profile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProfileValues>();
  const update = useUpdateProfile();

  // The form follows the saved profile (after a save, or when another tab changed it).
  useEffect(() => {
    form.setFieldsValue({ nickname: own.nickname, bio: own.bio });
  }, [form, own.nickname, own.bio]);

  const save = (values: ProfileValues) =>
    update.mutate(
      { nickname: values.nickname.trim(), bio: values.bio.trim() },
      {
        onSuccess: () => void message.success(t('settings.saved')),
        onError: (error) => {
          const perField = walletFieldErrors(t, error);
          form.setFields(
            (['nickname', 'bio'] as const)
              .filter((name) => perField[name])
              .map((name) => ({ name, errors: [perField[name] as string] })),
          );
          void message.error(walletErrorMessage(t, error, t('settings.saveFailed')));
        },
      },
    );

  return (
    <Flex vertical gap={20}>
      <AvatarEditor own={own} user={user} />

      <ProfileStats own={own} />

      <Form<ProfileValues>
        form={form}
        name="profile"
        layout="vertical"
        requiredMark={false}
        initialValues={{ nickname: own.nickname, bio: own.bio }}
        onFinish={save}
      >
        <Form.Item
          name="nickname"
          label={t('settings.nickname')}
          rules={[
            {
              max: NICKNAME_MAX_LENGTH,
              message: t('wallet.errors.nicknameTooLong', { max: NICKNAME_MAX_LENGTH }),
            },
          ]}
        >
          <Input
            maxLength={NICKNAME_MAX_LENGTH}
            showCount
            placeholder={t('settings.nicknamePlaceholder', { max: NICKNAME_MAX_LENGTH })}
            data-testid="profile-nickname"
          />
        </Form.Item>
        <Form.Item
          name="bio"
          label={t('settings.bio')}
          rules={[
            {
              max: BIO_MAX_LENGTH,
              message: t('wallet.errors.bioTooLong', { max: BIO_MAX_LENGTH }),
            },
          ]}
        >
          <Input.TextArea
            maxLength={BIO_MAX_LENGTH}
            showCount
            autoSize={{ minRows: 3, maxRows: 6 }}
            placeholder={t('settings.bioPlaceholder', { max: BIO_MAX_LENGTH })}
            data-testid="profile-bio"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={update.isPending}
          data-testid="profile-save"
        >
          {t('settings.save')}
        </Button>
      </Form>

      <ProfileIdentifiers own={own} user={user} />
    </Flex>
  );
}
