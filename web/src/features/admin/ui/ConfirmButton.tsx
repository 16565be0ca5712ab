import { Button, Group, Modal, Stack, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A filled button writes white on its colour: these shades keep 4.5:1 (orange and yellow never do). */
const strong = (c: ButtonProps['color']) => (!c || String(c).includes('.') ? c : c === 'orange' || c === 'yellow' ? 'red.9' : `${c}.9`);

/**
 * A button that asks first: a dialog saying what will happen, and the action only on
 * Confirm. Every state-changing click of the console that cannot be undone goes through it.
 */
export function ConfirmButton(props: ButtonProps & {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  disabled?: boolean;
  loading?: boolean;
  onConfirm(): void;
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure();
  const { label, title, children, confirmLabel, onConfirm, ...button } = props;
  return (
    <>
      <Button size="xs" variant="light" {...button} onClick={open}>{label}</Button>
      <Modal opened={opened} onClose={close} title={title}>
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>{t('cancel')}</Button>
            <Button color={strong(button.color)} onClick={() => { close(); onConfirm(); }}>{confirmLabel ?? t('confirm')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
