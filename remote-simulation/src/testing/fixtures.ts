// A small catalogue shaped like the seeded one (docs/catalogue.md), typed by the contract.
import type { Product, ProductCategory } from '@portal/contract';
import { TEST_USER_ID } from '@portal/shared-auth/testing';

/** The signed-in user of the harness. */
export const USER_ID = TEST_USER_ID;
export const SESSION_UUID = '0b6f2c3e-8a41-4d5b-9c7e-2f1a3b4c5d6e';
export const SESSION_TOKEN = 'session-token-123';

export const radiography: Product = {
  id: 1,
  code: 'radiography',
  name: 'Radiography',
  description: 'Position patients and take X-ray images of limbs, skull and torso.',
  protocol: 'vmc-radiography',
  launchProtocols: ['vmc-radiography', 'vmc-radiography-vr'],
  image: 'images/products/radiography.svg',
  selectionMessage: 'Choose VR or Desktop to start the radiography simulation.',
};

export const birthing: Product = {
  id: 3,
  code: 'birthing',
  name: 'Birthing',
  description: 'Support a birth in different positions.',
  protocol: 'vmc-birthing',
  launchProtocols: ['vmc-birthing'],
  image: null,
  selectionMessage: null,
};

const leaf = (
  id: number,
  name: string,
  displayName: string,
  configuration: string | null,
): ProductCategory => ({
  id,
  name,
  displayName,
  image: null,
  simulationConfiguration: configuration,
  children: [],
});

export const knee = leaf(12, 'knee', 'Knee', 'radiography.lower-limb.knee');
export const hip = leaf(13, 'hip', 'Hip', null);

export const radiographyCategories: ProductCategory[] = [
  {
    id: 10,
    name: 'lower-limb',
    displayName: 'Lower limb',
    image: 'images/categories/radiography/lower-limb.svg',
    simulationConfiguration: null,
    children: [leaf(11, 'foot', 'Foot', 'radiography.lower-limb.foot'), knee, hip],
  },
  {
    id: 20,
    name: 'upper-limb',
    displayName: 'Upper limb',
    image: 'images/categories/radiography/upper-limb.svg',
    simulationConfiguration: null,
    children: [leaf(21, 'wrist', 'Wrist', 'radiography.upper-limb.wrist')],
  },
];

export const birthingCategories: ProductCategory[] = [
  {
    ...leaf(31, 'kneeling', 'Kneeling', 'birthing.kneeling'),
    image: 'images/categories/birthing/kneeling.svg',
  },
];
