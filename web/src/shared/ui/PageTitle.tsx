import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PageTitle(props: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Title order={1} size="h2">{props.children}</Title>
      {props.actions ? <Group gap="xs">{props.actions}</Group> : null}
    </Group>
  );
}
