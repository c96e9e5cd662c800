import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { OperatingSystem } from './download';
import { UploadedFile } from './user-admin';

const Id = Type.Integer({ minimum: 1, maximum: MAX_INT4 });
const FileId = Type.String({ format: 'uuid' });
const NAME_MAX_LENGTH = 255;

export const ProductParams = Type.Object({ id: Id });
export const ProductConfigurationParams = Type.Object({ id: Id, configurationId: Id });
export const SimulationDownloadParams = Type.Object({ id: Id, downloadId: Id });

/**
 * docs/requirements.md#data (Product configuration). `practiceViewCategory` is the id of a `practice_view_category`
 * lookup item of the same product; the files are what the uploads answered (state `saved` once
 * the configuration that uses them is saved).
 */
export const ProductConfiguration = Type.Object({
  id: Type.Integer(),
  product: Type.Integer(),
  configurationName: Type.String(),
  practiceViewCategory: Type.Integer(),
  isSelfAssessment: Type.Boolean(),
  configFile: UploadedFile,
  translationFile: Type.Union([UploadedFile, Type.Null()]),
});
export type ProductConfiguration = Static<typeof ProductConfiguration>;

/**
 * POST/PUT body: the files by the ids their uploads answered (kinds `sim-config` and
 * `sim-config-translation`). The config file must parse and match the product's configuration
 * schema; the translation file must be a JSON object of strings.
 */
export const ProductConfigurationInput = Type.Object(
  {
    configurationName: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
    practiceViewCategory: Id,
    isSelfAssessment: Type.Optional(Type.Boolean({ default: true })),
    configFile: FileId,
    translationFile: Type.Optional(Type.Union([FileId, Type.Null()])),
  },
  { additionalProperties: false },
);
export type ProductConfigurationInput = Static<typeof ProductConfigurationInput>;

/** Default ordering `configurationName`; `filter` matches the name. */
export const PRODUCT_CONFIGURATION_ORDERING_FIELDS = [
  'id',
  'configurationName',
  'practiceViewCategory',
  'isSelfAssessment',
] as const;
export const ProductConfigurationListQuery = PagedQuery;

/** `major.minor.patch`, each part 0–9999 without leading zeros. */
export const VERSION_PATTERN = '^(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})$';

/** docs/requirements.md#data (Simulation download), as administrators see it. */
export const SimulationDownload = Type.Object({
  id: Type.Integer(),
  product: Type.Integer(),
  version: Type.String(),
  operatingSystem: OperatingSystem,
  isActive: Type.Boolean(),
  fileUrl: Type.String(),
  /** The installer (upload kind `sim-installation-file`); null when only `fileUrl` is given. */
  file: Type.Union([UploadedFile, Type.Null()]),
  fileId: Type.Union([FileId, Type.Null()]),
});
export type SimulationDownload = Static<typeof SimulationDownload>;

/** What a download's fields must look like; the schema and the API's own checks say it alike. */
export const DOWNLOAD_FIELD_MESSAGES = {
  version: 'Enter the version as major.minor.patch, e.g. 3.0.0.',
  fileUrl: 'Enter an https:// address.',
} as const;

/**
 * POST/PUT body. `version` unique per product and operating system (400 on `version`); `fileUrl`
 * https only; `isActive` defaults to true. The shape rules sit in the schema (with the words a
 * `x-patternMessage` gives them (an OpenAPI extension)), so one 400 names every malformed field at once; what needs the
 * database (a taken version, an upload of someone else's) is checked once the shape is right.
 */
export const SimulationDownloadInput = Type.Object(
  {
    version: Type.String({
      maxLength: 14,
      pattern: VERSION_PATTERN,
      'x-patternMessage': DOWNLOAD_FIELD_MESSAGES.version,
    }),
    operatingSystem: OperatingSystem,
    // The start only; the full check (a host, no credentials) is isHttpsUrl's in the API.
    fileUrl: Type.String({
      maxLength: 2048,
      pattern: '^https://\\S+$',
      'x-patternMessage': DOWNLOAD_FIELD_MESSAGES.fileUrl,
    }),
    fileId: Type.Optional(Type.Union([FileId, Type.Null()])),
    isActive: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type SimulationDownloadInput = Static<typeof SimulationDownloadInput>;

/** Default ordering `-isActive` (then newest version first). */
export const SIMULATION_DOWNLOAD_ORDERING_FIELDS = [
  'id',
  'version',
  'operatingSystem',
  'isActive',
] as const;
export const SimulationDownloadListQuery = PagedQuery;

/** Installer uploads stream to storage; everything else keeps the 10 MB of docs/requirements.md#file-rules. */
export const INSTALLER_MAX_BYTES = 2 * 1024 ** 3;
export const INSTALLER_EXTENSIONS = ['exe', 'msi', 'zip', 'dmg', 'pkg'] as const;

/**
 * GET /api/v1/notification: what needs an administrator's attention, per organisation for its
 * administrators, all for global administrators.
 */
export const NOTIFICATION_KINDS = [
  'license_expiring',
  'license_seats_nearly_full',
  'license_ended',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const Notification = Type.Object({
  kind: Type.Union(NOTIFICATION_KINDS.map((k) => Type.Literal(k))),
  organisation: Type.Integer(),
  organisationName: Type.String(),
  license: Type.Integer(),
  licenseName: Type.String(),
  /** Expiry day (yyyy-MM-dd) for expiring/ended licences, else null. */
  expiryDate: Type.Union([Type.String(), Type.Null()]),
  seatsUsed: Type.Integer(),
  numberOfSeats: Type.Integer(),
});
export type Notification = Static<typeof Notification>;
export const NotificationList = Type.Array(Notification);
export const NotificationQuery = Type.Object(
  { organisation: Type.Optional(Id) },
  { additionalProperties: false },
);
/** Licences expiring within this many days are announced; seats at or above this share too. */
export const NOTIFY_EXPIRY_DAYS = 30;
export const NOTIFY_SEATS_SHARE = 0.9;

/**
 * GET/PUT /api/v1/product/{id}/configuration-schema: the JSON Schema a product's configuration
 * files must match (global administrators, `global.manage_validation_schema`). A PUT's schema
 * must itself be a valid JSON Schema (draft-07, checked against its meta-schema; 400 on
 * `schema`, each message starting with the JSON path); saves are audited.
 */
export const ProductConfigurationSchema = Type.Object({
  product: Type.Integer(),
  schema: Type.Record(Type.String(), Type.Unknown()),
});
export type ProductConfigurationSchema = Static<typeof ProductConfigurationSchema>;

export const ProductConfigurationSchemaInput = Type.Object(
  { schema: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);
export type ProductConfigurationSchemaInput = Static<typeof ProductConfigurationSchemaInput>;
