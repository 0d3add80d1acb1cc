'use client';

import { AppShell, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import NextLink from 'next/link';
import { useParams, usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { useSession } from '@/lib/session';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { operatorNav, tenantNav, tenantPath } from './navigation';
import { TenantLabel } from './tenant-label';
import { TenantSwitcher } from './tenant-switcher';
import { UserMenu } from './user-menu';

/** The frame of every signed-in page: the header, the navigation the role allows, the page. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const session = useSession();
  const pathname = usePathname();
  const { tenantId: routeTenant } = useParams<{ tenantId?: string }>();
  const [opened, { toggle, close }] = useDisclosure();
  const tenantId = routeTenant ?? (session.isOperator ? undefined : session.tenants[0]?.id);

  const link = (href: string, label: string, exact = false) => {
    const active = href === pathname || (!exact && pathname.startsWith(`${href}/`));
    return (
      <NavLink
        key={href}
        component={NextLink}
        href={href}
        label={label}
        active={active}
        aria-current={active ? 'page' : undefined}
        onClick={close}
      />
    );
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
            />
            <Text component={NextLink} href="/" fw={700} size="lg">
              Sluice
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <TenantSwitcher hideWhenSingle={!session.isOperator} />
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" component="nav" aria-label="Main">
        <ScrollArea>
          {session.isOperator && (
            <>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4}>
                Platform
              </Text>
              {operatorNav.map((item) => link(item.path, item.label))}
            </>
          )}
          {tenantId && (
            <>
              <TenantLabel tenantId={tenantId} />
              {tenantNav.map((item) =>
                link(tenantPath(tenantId, item.path), item.label, item.path === ''),
              )}
            </>
          )}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
