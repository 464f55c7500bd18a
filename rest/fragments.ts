/** GraphQL selections that produce the REST shapes of the spec, shared by routes. */

/** Spec 2.10 Event (plus Unleash's groupType/groupId). */
export const EVENT_FIELDS = /* GraphQL */ `
  id createdAt type createdBy createdByUserId environment project featureName
  data preData tags { type value } label summary groupType groupId
`;
