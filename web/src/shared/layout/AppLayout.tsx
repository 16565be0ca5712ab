import { AppShell, Burger, Group, NavLink, NativeSelect, Button, Text, ScrollArea } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { LANGUAGES, setLanguage, type Lang } from '../i18n/index.js';

export interface NavItem {
  to: string;
  /** i18n key of the label. */
  label: string;
  icon?: ReactNode;
  children?: NavItem[];
}

/**
 * The frame of every signed-in page: header with the app's name, language and sign-out;
 * a side navigation that becomes a burger menu on a phone.
 */
export function AppLayout(props: { title: string; nav: NavItem[]; who: string; onSignOut(): void; banner?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const active = (to: string) => pathname === to || pathname.startsWith(`${to}/`);
  // On a phone the header has room for the language's code only.
  const phone = useMediaQuery('(max-width: 36em)');

  const link = (item: NavItem) => (
    <NavLink
      key={item.to}
      component={RouterLink}
      to={item.to}
      label={t(item.label)}
      leftSection={item.icon}
      active={item.children ? false : active(item.to)}
      defaultOpened={item.children ? active(item.to) : undefined}
      onClick={item.children ? undefined : close}
    >
      {item.children?.map(link)}
    </NavLink>
  );

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('openNavigation')} />
            <Text fw={700} truncate>{props.title}</Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <NativeSelect
              aria-label={t('language')}
              size="xs"
              value={i18n.language}
              data={LANGUAGES.map((l) => ({ value: l.code, label: phone ? l.code.toUpperCase() : l.label }))}
              onChange={(e) => setLanguage(e.currentTarget.value as Lang)}
            />
            <Button size="xs" variant="default" onClick={props.onSignOut}>{t('signOut')}</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('mainNavigation')}>
        <AppShell.Section grow component={ScrollArea}>{props.nav.map(link)}</AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="dimmed" truncate px="sm" py="xs">{props.who}</Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {props.banner}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** The frame of the signed-out pages (sign-in, registration). */
export function PublicLayout(props: { title: string; children: ReactNode }) {
  const { i18n, t } = useTranslation();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', padding: '2rem 1rem' }}>
      <Group justify="space-between" w="100%" maw={440} mb="lg">
        <Text fw={700} component="p">{props.title}</Text>
        <NativeSelect
          aria-label={t('language')}
          size="xs"
          value={i18n.language}
          data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
          onChange={(e) => setLanguage(e.currentTarget.value as Lang)}
        />
      </Group>
      <main style={{ width: '100%', maxWidth: 440 }}>{props.children}</main>
    </div>
  );
}
