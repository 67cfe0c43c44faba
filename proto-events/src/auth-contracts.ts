import { defineEvent, defineRpc } from './contract';
import type {
  ApiKeyCreateRequestV1,
  ApiKeyListV1,
  ApiKeyOwnerV1,
  ApiKeyResolveRequestV1,
  ApiKeyUserRequestV1,
  ApiKeyV1,
  AuthSetupStatusV1,
  CreateUserRequestV1,
  EmptyV1,
  ListUsersRequestV1,
  LoginRequestV1,
  LookupUsersRequestV1,
  UserProfileListV1,
  LogoutRequestV1,
  PasswordChangeRequestV1,
  RefreshRequestV1,
  TokenPairV1,
  UpdateUserRequestV1,
  UserDeletedV1,
  UserIdRequestV1,
  UserListV1,
  UserV1,
} from './generated/types';
import apiKeyCreateRequestV1 from './schemas/auth-api-key-create-request.v1.json';
import apiKeyListV1 from './schemas/auth-api-key-list.v1.json';
import apiKeyOwnerV1 from './schemas/auth-api-key-owner.v1.json';
import apiKeyResolveRequestV1 from './schemas/auth-api-key-resolve-request.v1.json';
import apiKeyUserRequestV1 from './schemas/auth-api-key-user-request.v1.json';
import apiKeyV1 from './schemas/auth-api-key.v1.json';
import lookupUsersRequestV1 from './schemas/auth-user-lookup-request.v1.json';
import userProfileListV1 from './schemas/auth-user-profile-list.v1.json';
import loginRequestV1 from './schemas/auth-login-request.v1.json';
import logoutRequestV1 from './schemas/auth-logout-request.v1.json';
import passwordChangeRequestV1 from './schemas/auth-password-change-request.v1.json';
import refreshRequestV1 from './schemas/auth-refresh-request.v1.json';
import tokenPairV1 from './schemas/auth-token-pair.v1.json';
import setupStatusV1 from './schemas/auth-setup-status.v1.json';
import emptyV1 from './schemas/empty.v1.json';
import createUserRequestV1 from './schemas/user-create-request.v1.json';
import userDeletedV1 from './schemas/user-deleted.v1.json';
import userIdRequestV1 from './schemas/user-id-request.v1.json';
import listUsersRequestV1 from './schemas/user-list-request.v1.json';
import userListV1 from './schemas/user-list.v1.json';
import updateUserRequestV1 from './schemas/user-update-request.v1.json';
import userFeaturesV1 from './schemas/user-features.v1.json';
import userV1 from './schemas/user.v1.json';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref`: a user's features, an API key.
registerSchemas([userFeaturesV1, apiKeyV1]);

export const loginRpc = defineRpc<LoginRequestV1, TokenPairV1>({
  subject: 'trove.v1.auth.login',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Checks a username and password (rate-limited per username and client address) and opens a session: an access and a refresh token.',
  request: loginRequestV1,
  response: tokenPairV1,
});

export const refreshRpc = defineRpc<RefreshRequestV1, TokenPairV1>({
  subject: 'trove.v1.auth.refresh',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Rotates a refresh token into a new pair; a token that was already rotated revokes its whole session (theft detection).',
  request: refreshRequestV1,
  response: tokenPairV1,
});

export const logoutRpc = defineRpc<LogoutRequestV1, EmptyV1>({
  subject: 'trove.v1.auth.logout',
  service: 'auth',
  callers: ['gateway'],
  summary: 'Ends a session: its refresh token stops working and its access tokens are revoked.',
  request: logoutRequestV1,
  response: emptyV1,
});

export const changePasswordRpc = defineRpc<PasswordChangeRequestV1, EmptyV1>({
  subject: 'trove.v1.auth.password.change',
  service: 'auth',
  callers: ['gateway'],
  summary:
    "A user changes their own password, proving the current one (rate-limited like a login); the user's other sessions end.",
  request: passwordChangeRequestV1,
  response: emptyV1,
});

export const createUserRpc = defineRpc<CreateUserRequestV1, UserV1>({
  subject: 'trove.v1.auth.users.create',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Creates a user account (username unique case-insensitively, password strength checked) with its features (absent keys: on).',
  request: createUserRequestV1,
  response: userV1,
});

export const listUsersRpc = defineRpc<ListUsersRequestV1, UserListV1>({
  subject: 'trove.v1.auth.users.list',
  service: 'auth',
  callers: ['gateway'],
  summary: 'One page of user accounts, ordered by username.',
  request: listUsersRequestV1,
  response: userListV1,
});

export const getUserRpc = defineRpc<UserIdRequestV1, UserV1>({
  subject: 'trove.v1.auth.users.get',
  service: 'auth',
  callers: ['gateway'],
  summary: 'One user account.',
  request: userIdRequestV1,
  response: userV1,
});

export const lookupUsersRpc = defineRpc<LookupUsersRequestV1, UserProfileListV1>({
  subject: 'trove.v1.auth.users.lookup',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Users by id or user name (case-insensitive), as other users may know them: id, name and user name; unknown ones left out.',
  request: lookupUsersRequestV1,
  response: userProfileListV1,
});

export const updateUserRpc = defineRpc<UpdateUserRequestV1, UserV1>({
  subject: 'trove.v1.auth.users.update',
  service: 'auth',
  callers: ['gateway'],
  summary: "Changes a user's name, username, password or features; a new password ends the user's sessions.",
  request: updateUserRequestV1,
  response: userV1,
});

export const deleteUserRpc = defineRpc<UserIdRequestV1, EmptyV1>({
  subject: 'trove.v1.auth.users.delete',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Deletes a user account: its sessions and tokens are revoked at once, then events.v1.user.deleted is published.',
  request: userIdRequestV1,
  response: emptyV1,
});

export const setupStatusRpc = defineRpc<EmptyV1, AuthSetupStatusV1>({
  subject: 'trove.v1.auth.setup.status',
  service: 'auth',
  callers: ['gateway'],
  summary:
    'Whether no user account exists yet (a first run): the web app then offers to create the first one through the admin API.',
  request: emptyV1,
  response: setupStatusV1,
});

export const createApiKeyRpc = defineRpc<ApiKeyCreateRequestV1, ApiKeyV1>({
  subject: 'trove.v1.auth.apiKeys.create',
  service: 'auth',
  callers: ['gateway'],
  summary: 'Makes an API key for a user: the answer holds the secret (`key`) this once; only its SHA-256 is stored.',
  request: apiKeyCreateRequestV1,
  response: apiKeyV1,
});

export const listApiKeysRpc = defineRpc<ApiKeyUserRequestV1, ApiKeyListV1>({
  subject: 'trove.v1.auth.apiKeys.list',
  service: 'auth',
  callers: ['gateway'],
  summary: "A user's API keys, newest first, without their secrets.",
  request: apiKeyUserRequestV1,
  response: apiKeyListV1,
});

export const deleteApiKeyRpc = defineRpc<ApiKeyUserRequestV1, EmptyV1>({
  subject: 'trove.v1.auth.apiKeys.delete',
  service: 'auth',
  callers: ['gateway'],
  summary:
    "Revokes one of a user's API keys (NOT_FOUND for another's): `session.<keyId>` goes into the revocation bucket first, so every gateway refuses it at once.",
  request: apiKeyUserRequestV1,
  response: emptyV1,
});

export const resolveApiKeyRpc = defineRpc<ApiKeyResolveRequestV1, ApiKeyOwnerV1>({
  subject: 'trove.v1.auth.apiKeys.resolve',
  service: 'auth',
  callers: ['gateway'],
  summary:
    "Whose API key has this SHA-256 (UNAUTHORIZED when none): the gateway's X-Api-Key check; notes when the key was last used.",
  request: apiKeyResolveRequestV1,
  response: apiKeyOwnerV1,
});

export const userDeletedEvent = defineEvent<UserDeletedV1>({
  subject: 'events.v1.user.deleted',
  publishers: ['auth'],
  consumers: ['media', 'library', 'explore', 'jobs'],
  summary: "A user was deleted: each consumer removes that user's data.",
  payload: userDeletedV1,
});

export const authContracts = [
  loginRpc,
  refreshRpc,
  logoutRpc,
  changePasswordRpc,
  createUserRpc,
  listUsersRpc,
  getUserRpc,
  lookupUsersRpc,
  updateUserRpc,
  deleteUserRpc,
  setupStatusRpc,
  createApiKeyRpc,
  listApiKeysRpc,
  deleteApiKeyRpc,
  resolveApiKeyRpc,
  userDeletedEvent,
];
