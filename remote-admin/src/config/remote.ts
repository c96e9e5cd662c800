// This remote's entry in the remote manifest (contract/src/remotes.json): where the host mounts
// it, its dev port and its i18n namespace; and its strings, under that namespace.
import { REMOTES } from '@portal/contract/remotes';
import { createRemoteStrings } from '@portal/shared-ui';

export const REMOTE = REMOTES.admin;
export const remoteStrings = createRemoteStrings(REMOTE.namespace);
