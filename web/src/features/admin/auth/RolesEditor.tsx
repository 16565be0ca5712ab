import { Alert, Button, Checkbox, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { ADMIN_SESSION_KEY, useRolesTable } from './hooks.js';

/** An owner's dialog to set one operator's roles; the roles offered and the rules (last owner) are the API's. */
export function RolesEditor({ operator }: { operator: { id: string; email: string; roles: string[] } }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const table = useRolesTable();
  const [open, setOpen] = useState(false);
  const [roles, setRoles] = useState<string[]>(operator.roles);
  const save = useMutation({
    mutationFn: () => callData(adminApi.PUT('/operators/{id}/roles', { params: { path: { id: operator.id } }, body: { roles } })),
    onSuccess: () => {
      setOpen(false);
      void qc.invalidateQueries({ queryKey: ['admin', 'operators'] });
      void qc.invalidateQueries({ queryKey: ADMIN_SESSION_KEY });
    },
  });
  return (
    <>
      <Button size="xs" variant="light" onClick={() => { save.reset(); setRoles(operator.roles); setOpen(true); }} aria-label={`${t('operators.setRoles')} ${operator.email}`}>
        {t('operators.setRoles')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`${t('operators.setRoles')}: ${operator.email}`}>
        <Stack>
          <Checkbox.Group value={roles} onChange={setRoles} label={t('operators.roles')}>
            <Stack gap="xs" mt="xs">
              {(table.data?.roles ?? []).map((r) => <Checkbox key={r.name} value={r.name} label={r.name} description={r.description} />)}
            </Stack>
          </Checkbox.Group>
          {save.error ? <ErrorAlert error={save.error} /> : null}
          {save.isSuccess ? <Alert color="green" role="status">{roles.join(', ')}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>{t('cancel')}</Button>
            <Button loading={save.isPending} onClick={() => save.mutate()}>{t('operators.saveRoles')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
