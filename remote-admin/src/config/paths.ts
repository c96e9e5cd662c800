// Every route of this remote, relative to where the host mounted it (/admin), with the one way to
// build each link. `base` is the mount path from useAdminBase().
const id = (value: string | number) => encodeURIComponent(String(value));

export const paths = {
  organisations: { path: 'organisation', getHref: (base: string) => `${base}/organisation` },
  newOrganisation: { path: 'organisation/new', getHref: (base: string) => `${base}/organisation/new` },
  organisation: {
    path: 'organisation/:organisationId',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}`,
  },
  licences: {
    path: 'license',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/license`,
  },
  newLicence: {
    path: 'license/new',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/license/new`,
  },
  licence: {
    path: 'license/:licenseId',
    getHref: (base: string, organisationId: number, licenseId: number) =>
      `${base}/organisation/${id(organisationId)}/license/${id(licenseId)}`,
  },
  users: {
    path: 'user',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/user`,
  },
  newUsers: {
    path: 'user/new',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/user/new`,
  },
  user: {
    path: 'user/:userId',
    getHref: (base: string, organisationId: number, userId: string) =>
      `${base}/organisation/${id(organisationId)}/user/${id(userId)}`,
  },
  activity: {
    path: 'activity',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/activity`,
  },
  organisationNotifications: {
    path: 'notification',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/notification`,
  },
  learningPlatforms: {
    path: 'lti',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/lti`,
  },
  newLearningPlatform: {
    path: 'lti/new',
    getHref: (base: string, organisationId: number) => `${base}/organisation/${id(organisationId)}/lti/new`,
  },
  learningPlatform: {
    path: 'lti/:platformId',
    getHref: (base: string, organisationId: number, platformId: number) =>
      `${base}/organisation/${id(organisationId)}/lti/${id(platformId)}`,
  },
  products: { path: 'product', getHref: (base: string) => `${base}/product` },
  product: {
    path: 'product/:productId',
    getHref: (base: string, productId: number) => `${base}/product/${id(productId)}`,
  },
  // A product's own pages, declared relative to the product's route (`parent`).
  newConfiguration: {
    parent: 'product/:productId',
    path: 'configuration/new',
    getHref: (base: string, productId: number) => `${base}/product/${id(productId)}/configuration/new`,
  },
  configuration: {
    parent: 'product/:productId',
    path: 'configuration/:configurationId',
    getHref: (base: string, productId: number, configurationId: number) =>
      `${base}/product/${id(productId)}/configuration/${id(configurationId)}`,
  },
  downloads: {
    parent: 'product/:productId',
    path: 'download',
    getHref: (base: string, productId: number) => `${base}/product/${id(productId)}/download`,
  },
  newDownload: {
    parent: 'product/:productId',
    path: 'download/new',
    getHref: (base: string, productId: number) => `${base}/product/${id(productId)}/download/new`,
  },
  download: {
    parent: 'product/:productId',
    path: 'download/:downloadId',
    getHref: (base: string, productId: number, downloadId: number) =>
      `${base}/product/${id(productId)}/download/${id(downloadId)}`,
  },
  notifications: { path: 'notification', getHref: (base: string) => `${base}/notification` },
} as const;
