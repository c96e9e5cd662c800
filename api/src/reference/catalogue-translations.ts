/**
 * The demo catalogue's content in German (issue #12: German complete, content included). Keyed by
 * product code and by `<product code>.<slug>` for categories and leaves (slugs are unique within
 * a product); English, in catalogue.ts, is the fallback for anything missing here.
 */
export interface ProductTranslation {
  name: string;
  description: string;
  selectionMessage: string;
}

export const CATALOGUE_TRANSLATIONS: Readonly<
  Record<string, { products: Record<string, ProductTranslation>; categories: Record<string, string> }>
> = {
  de: {
    products: {
      radiography: {
        name: 'Radiographie',
        description:
          'Lagern Sie den Patienten, richten Sie Röntgenröhre und Detektor ein und erstellen Sie diagnostische Aufnahmen von Extremitäten, Schädel und Rumpf.',
        selectionMessage: 'Wählen Sie eine Körperregion und dann die Untersuchung, die Sie üben möchten.',
      },
      'radiation-safety': {
        name: 'Strahlenschutz',
        description:
          'Arbeiten Sie im Durchleuchtungsraum und sehen Sie, wie Abstand, Zeit und Abschirmung die Dosis verändern, die Sie und Ihr Team erhalten.',
        selectionMessage: 'Wählen Sie einen Eingriffsbereich und dann den Eingriff oder die Lektion, die Sie üben möchten.',
      },
      birthing: {
        name: 'Geburtshilfe',
        description:
          'Begleiten Sie eine Geburt in verschiedenen Gebärhaltungen und üben Sie die Kontrollen und Handgriffe, die jede Haltung erfordert.',
        selectionMessage: 'Wählen Sie die Gebärhaltung, die Sie üben möchten.',
      },
    },
    categories: {
      'radiography.lower-limb': 'Untere Extremität',
      'radiography.foot': 'Fuß',
      'radiography.ankle': 'Sprunggelenk',
      'radiography.knee': 'Knie',
      'radiography.hip': 'Hüfte',
      'radiography.upper-limb': 'Obere Extremität',
      'radiography.hand': 'Hand',
      'radiography.wrist': 'Handgelenk',
      'radiography.elbow': 'Ellenbogen',
      'radiography.shoulder': 'Schulter',
      'radiography.skull': 'Schädel',
      'radiography.sinuses': 'Nasennebenhöhlen',
      'radiography.facial-bones': 'Gesichtsschädel',
      'radiography.torso': 'Rumpf',
      'radiography.chest': 'Thorax',
      'radiography.abdomen': 'Abdomen',
      'radiography.pelvis': 'Becken',
      'radiation-safety.head': 'Kopf',
      'radiation-safety.cerebral-angiography': 'Zerebrale Angiographie',
      'radiation-safety.ct-head': 'CT Kopf',
      'radiation-safety.heart': 'Herz',
      'radiation-safety.coronary-angiography': 'Koronarangiographie',
      'radiation-safety.pacemaker-implantation': 'Herzschrittmacher-Implantation',
      'radiation-safety.liver': 'Leber',
      'radiation-safety.liver-biopsy': 'Leberbiopsie',
      'radiation-safety.tips-procedure': 'TIPS-Anlage',
      'radiation-safety.lesson': 'Lektion',
      'radiation-safety.distance-and-time': 'Abstand und Zeit',
      'radiation-safety.shielding': 'Abschirmung',
      'birthing.all-fours': 'Vierfüßlerstand',
      'birthing.kneeling': 'Kniend',
      'birthing.semi-recumbent': 'Halbsitzend',
    },
  },
};
