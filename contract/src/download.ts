import { Type, type Static } from '@sinclair/typebox';

export const OPERATING_SYSTEMS = ['windows', 'mac'] as const;
export const OperatingSystem = Type.Union(OPERATING_SYSTEMS.map((o) => Type.Literal(o)));
export type OperatingSystem = Static<typeof OperatingSystem>;

export const UserDownload = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  operatingSystem: OperatingSystem,
  /** The installer file; null when the download only has an external fileUrl. */
  fileId: Type.Union([Type.String(), Type.Null()]),
  fileUrl: Type.String(),
});
export type UserDownload = Static<typeof UserDownload>;

/** GET /api/v1/user/{id}/simulation-download: active versions of entitled products, per product. */
export const DownloadGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  downloads: Type.Array(UserDownload),
});
export type DownloadGroup = Static<typeof DownloadGroup>;
export const DownloadGroupList = Type.Array(DownloadGroup);

export const FILE_KINDS = [
  'user',
  'sim-config',
  'sim-config-translation',
  'sim-installation-file',
] as const;
export const FileKind = Type.Union(FILE_KINDS.map((k) => Type.Literal(k)));
export type FileKind = Static<typeof FileKind>;
export const FileDownloadParams = Type.Object({ id: Type.String({ format: 'uuid' }), kind: FileKind });

/** GET /api/v1/file/{id}/download/{kind}: a short-lived signed URL. */
export const FileDownload = Type.Object({ url: Type.String(), originalName: Type.String() });
export type FileDownload = Static<typeof FileDownload>;
