'use client';

import { Avatar, Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import NextLink from 'next/link';
import { useMutation } from 'urql';
import { graphql } from '@/generated/gql';
import { useSession } from '@/lib/session';

const LogoutDocument = graphql(`
  mutation Logout {
    logout
  }
`);

/** The signed-in user: their account page and signing out. */
export function UserMenu() {
  const { user } = useSession();
  const [, logout] = useMutation(LogoutDocument);
  const signOut = async () => {
    await logout({});
    // a full load drops every cached answer of this session
    window.location.assign('/sign-in');
  };
  const initials = user.name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <UnstyledButton>
          <Avatar color="indigo" radius="xl" size={34} aria-hidden>
            {initials}
          </Avatar>
          <VisuallyHidden>Account of {user.name || user.email}</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.name}
          <br />
          {user.email}
        </Menu.Label>
        <Menu.Item component={NextLink} href="/account">
          Account and password
        </Menu.Item>
        <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
