// Names for the generated wire types in common use. src/api/generated.ts is generated from
// the APIs' OpenAPI documents (`npm run gen:api`, docs/api.md); a type named here follows
// the server's answer type, and tsc fails where a screen reads a field the server dropped.
import type { components } from './generated';
import type { RoleType } from './types';

/** Every schema the two documents describe, by name (`Schemas['ClientItem']`). */
export type Schemas = components['schemas'];

/** The body of every error answer: the message, and the fields' messages on a 422. */
export type ErrorBody = Schemas['ErrorBody'];

/** The answer of every sign-in call (login, social login, reset password, complete registration). */
export type LoginResponse = Schemas['SessionResponse'];

/** The `user` of a sign-in answer. */
export type LoginUser = Schemas['SessionUser'];

/** A unit of the sign-in answer. */
export type SessionCompany = Schemas['SessionCompany'];

/** The role of a sign-in answer, its `Type` narrowed to the codes the menus know. */
export type Role = Schemas['SessionRole'] & { Type: RoleType };

/** A unit of GET company: whether the user belongs to it, and its IANA time zone (issue 39). */
export type CompanyDto = Schemas['SessionCompanyItem'];

/** One favourite entry of GET professional-favorite-menu/. */
export type FavoriteMenu = Schemas['FavoriteItem'];

/** The answer of POST professional-favorite-menu/. */
export type Starred = Schemas['Starred'];

/** Body of POST session-professional/login. */
export type LoginRequest = Schemas['LoginBody'];

/** Body of POST session-professional/login-social-media. */
export type SocialLoginRequest = Schemas['SocialLoginBody'];
