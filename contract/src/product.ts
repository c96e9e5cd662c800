import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_INT4 } from './common';

export const SIMULATION_MODES = ['VR', 'Desktop'] as const;
export type SimulationMode = (typeof SIMULATION_MODES)[number];
export const SimulationMode = Type.Union(SIMULATION_MODES.map((m) => Type.Literal(m)));

export const ProductIdParams = Type.Object({
  productId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
});
export type ProductIdParams = Static<typeof ProductIdParams>;

/**
 * `?language=de`: catalogue content in that language, English where it has no translation;
 * without it, the signed-in user's stored language. Part of the URL so caches keep one copy per
 * language.
 */
export const CatalogueLanguageQuery = Type.Object(
  { language: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' })) },
  { additionalProperties: false },
);
export type CatalogueLanguageQuery = Static<typeof CatalogueLanguageQuery>;

export const Product = Type.Object({
  id: Type.Integer(),
  /** Stable code ('radiography'); images and the simulator key off it. */
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  /** URL scheme of the desktop/VR app the launch link opens. */
  protocol: Type.String(),
  /**
   * Every URL scheme a launch may name (docs/requirements.md#data (Launch parameters)): `protocol`
   * first, then the product's alternatives (e.g. its VR build's). A launch query's `protocol`
   * outside this list is refused.
   */
  launchProtocols: Type.Array(Type.String()),
  /** Image path relative to the simulation remote's origin; null = placeholder image. */
  image: Type.Union([Type.String(), Type.Null()]),
  selectionMessage: Type.Union([Type.String(), Type.Null()]),
});
export type Product = Static<typeof Product>;
export const ProductList = Type.Array(Product);
export type ProductList = Static<typeof ProductList>;

/** A node of a product's category tree; leaves carry the simulation configuration. */
export interface ProductCategory {
  id: number;
  name: string;
  displayName: string;
  image: string | null;
  simulationConfiguration: string | null;
  children: ProductCategory[];
}
export const ProductCategory = Type.Recursive(
  (Self: TSchema) =>
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      displayName: Type.String(),
      image: Type.Union([Type.String(), Type.Null()]),
      simulationConfiguration: Type.Union([Type.String(), Type.Null()]),
      children: Type.Array(Self),
    }),
  { $id: 'ProductCategory' },
);
export const ProductCategoryList = Type.Array(ProductCategory);

/** GET /api/v1/user/{id}/entitlement-mode/{productId}: the modes the user may launch in. */
export const EntitlementModes = Type.Object({ modes: Type.Array(SimulationMode) });
export type EntitlementModes = Static<typeof EntitlementModes>;
