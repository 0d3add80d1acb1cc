'use client';

import { Button, Tabs } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { PageHeader } from '@/components/page-header';
import { InviteOperatorModal } from './_components/invite-operator-modal';
import { OperatorInvitations } from './_components/operator-invitations';
import { OperatorList } from './_components/operator-list';
import { UserList } from './_components/user-list';
import { USER_VIEWS, useUserFilters, type UserView } from './_hooks/use-user-filters';

export default function UsersPage() {
  const { filters, setView } = useUserFilters();
  const [inviting, { open, close }] = useDisclosure();

  return (
    <>
      <PageHeader
        title="Users"
        description="Every account of the console and what it may open; disable one to sign it out and keep it out. Operators manage the whole platform."
        actions={<Button onClick={open}>Invite an operator</Button>}
      />
      <Tabs
        value={filters.view}
        onChange={(value) => {
          if (USER_VIEWS.includes(value as UserView)) setView(value as UserView);
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="users">All users</Tabs.Tab>
          <Tabs.Tab value="operators">Operators</Tabs.Tab>
          <Tabs.Tab value="invitations">Pending operator invitations</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <UserList />
        </Tabs.Panel>
        <Tabs.Panel value="operators">
          <OperatorList />
        </Tabs.Panel>
        <Tabs.Panel value="invitations">
          <OperatorInvitations />
        </Tabs.Panel>
      </Tabs>
      <InviteOperatorModal
        opened={inviting}
        onClose={close}
        onInvited={() => setView('invitations')}
      />
    </>
  );
}
