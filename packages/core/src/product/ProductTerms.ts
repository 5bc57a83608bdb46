/**
 * What the products' documents say in words, in Danish (the products' language): the coverages' titles and what
 * each covers, and the terms of the product information document (IPID, Commission Implementing Regulation (EU)
 * 2017/1469) — what is not insured, restrictions, where the cover applies, the customer's obligations, payment,
 * start and end, cancellation — per product and variant. Catalogue data: the figures (limits, deductibles, the
 * monthly surcharge) come from the tariff in force, never from here; `{monthly_surcharge_percent}` in a text is
 * replaced with the tariff's.
 */
import type { ProductName } from "./ProductCatalogue.js"
import type { Variant } from "./Variant.js"

/** A coverage as the documents name and explain it. */
export interface CoverageTerms {
  readonly title: string
  readonly covers: string
}

/** Every coverage name the shipped tariffs use (and statsafgift, a charge Extended lists as a coverage). */
export const COVERAGE_TERMS: Readonly<Record<string, CoverageTerms>> = {
  kasko: {
    title: "Kasko",
    covers: "Skader på bilen ved færdselsuheld, brand, tyveri, forsøg på tyveri og hærværk."
  },
  ansvar: {
    title: "Lovpligtig ansvarsforsikring",
    covers: "Skader, som bilen forvolder på andre personer og på andres ting, efter færdselslovens regler."
  },
  påkørsel_af_dyr: {
    title: "Påkørsel af dyr",
    covers: "Skader på bilen, når den påkører et dyr, uden at du betaler selvrisiko."
  },
  lånebil: {
    title: "Lånebil",
    covers: "En lånebil, mens bilen repareres efter en skade, som forsikringen dækker."
  },
  udvidet_glas: {
    title: "Udvidet glasdækning",
    covers: "Ruder, soltag, spejlglas og lygteglas, uden selvrisiko."
  },
  udvidet_førerulykke: {
    title: "Udvidet førerulykke",
    covers: "Erstatning, når føreren kommer til skade ved et færdselsuheld med bilen, også uden en modpart."
  },
  afleveringsforsikring: {
    title: "Afleveringsforsikring",
    covers: "Skader, som leasinggiver opgør, når bilen afleveres ved leasingperiodens udløb."
  },
  vejhjælp: {
    title: "Vejhjælp",
    covers: "Hjælp ved driftsstop, punktering og uheld: starthjælp, hjælp på stedet eller bugsering til værksted."
  },
  førerulykke: {
    title: "Førerulykke",
    covers: "Erstatning ved førerens død eller varige mén efter et færdselsuheld med bilen."
  },
  retshjælp: {
    title: "Retshjælp",
    covers: "Udgifter til advokat og sagsomkostninger i tvister om bilen."
  },
  redning_i_udlandet: {
    title: "Redning i udlandet",
    covers: "Hjemtransport af bil, fører og passagerer efter uheld eller sygdom under kørsel i udlandet."
  },
  friskade: {
    title: "Friskade",
    covers: "Den første kaskoskade i et forsikringsår giver ingen forhøjelse af præmien."
  },
  statsafgift: {
    title: "Statsafgift",
    covers: "Afgiften til staten af den lovpligtige ansvarsforsikring; den opkræves sammen med præmien."
  }
}

/** A coverage's title, or its tariff name when the catalogue has no words for it (a tariff of an insurer's own). */
export const coverageTitle = (coverage: string): string => COVERAGE_TERMS[coverage]?.title ?? coverage

/** The titles of the IPID's sections, as the regulation's template words them. */
export const IPID_HEADINGS = {
  kind: "Hvilken type forsikring er der tale om?",
  insured: "Hvad dækker forsikringen?",
  notInsured: "Hvad dækker forsikringen ikke?",
  restrictions: "Er der begrænsninger i dækningen?",
  where: "Hvor er jeg dækket?",
  obligations: "Hvilke forpligtelser har jeg?",
  payment: "Hvornår og hvordan betaler jeg?",
  startAndEnd: "Hvornår starter og slutter dækningen?",
  cancellation: "Hvordan opsiger jeg aftalen?"
} as const

/** The IPID's terms of one product variant, in words. */
export interface ProductTerms {
  /** The variant's name as customers read it. */
  readonly variantTitle: string
  /** Who the variant is for and what kind of insurance it is. */
  readonly kind: string
  readonly notInsured: ReadonlyArray<string>
  readonly restrictions: ReadonlyArray<string>
  readonly where: ReadonlyArray<string>
  readonly obligations: ReadonlyArray<string>
  readonly payment: ReadonlyArray<string>
  readonly startAndEnd: ReadonlyArray<string>
  readonly cancellation: ReadonlyArray<string>
}

const NOT_INSURED = [
  "Skader sket, mens føreren var påvirket af alkohol, narkotika eller medicin, der gør det uforsvarligt at køre.",
  "Skader, som er forvoldt med forsæt eller ved grov uagtsomhed.",
  "Slid, ælde, rust, frostsprængning og mekaniske fejl.",
  "Kørsel på bane, væddeløb og træning til væddeløb.",
  "Bagage, udstyr og andre ting, der ikke er fastmonteret i bilen."
]

const RESTRICTIONS = [
  "Ved en kaskoskade betaler du den selvrisiko, der står i tabellen ovenfor.",
  "Dækningerne med en forsikringssum erstatter højst summen i tabellen ovenfor.",
  "Føreren skal have gyldigt kørekort til bilen; ellers kan vi kræve udbetalingen tilbage.",
  "Kasko erstatter højst bilens handelsværdi lige før skaden."
]

const OBLIGATIONS = [
  "Giv rigtige og fuldstændige oplysninger, når du får tilbuddet.",
  "Fortæl os, hvis bilens brug, føreren eller din adresse ændrer sig.",
  "Anmeld en skade hurtigst muligt, og anmeld tyveri og hærværk til politiet.",
  "Lås bilen, og pas på den, så skader undgås."
]

const PAYMENT = [
  "Præmien betales forud, 1 eller 12 gange om året, som aftalt i tilbuddet.",
  "Ved 12 betalinger om året lægges {monthly_surcharge_percent} % til årets præmie.",
  "Afgifterne til staten og bidragene til Garantifonden og miljøbidraget er med i prisen."
]

const CANCELLATION = [
  "Du kan fortryde aftalen inden for 14 dage efter, at du har fået policen (forsikringsaftaleloven).",
  "Du kan opsige forsikringen med 1 måneds varsel til udgangen af en måned.",
  "Efter en skade kan både du og vi opsige forsikringen med 14 dages varsel."
]

const TERMS: Readonly<Record<ProductName, Readonly<Record<Variant, ProductTerms>>>> = {
  "insurance-car-leasing": {
    standard: {
      variantTitle: "Standard, privat",
      kind: "Bilforsikring til en privat person, der leaser en personbil eller varevogn til privat kørsel. Leasingselskabet ejer bilen. Forsikringen dækker ansvar og kasko med de dækninger, der står nedenfor.",
      notInsured: [...NOT_INSURED, "Kørsel med bilen til erhverv eller godstransport."],
      restrictions: [
        ...RESTRICTIONS,
        "Afleveringsforsikringen dækker kun skader, der er opgjort efter leasingaftalens regler for aflevering."
      ],
      where: [
        "I Danmark og i de lande, der er med i det grønne kort-system.",
        "Vejhjælp ydes i Danmark og i det øvrige Europa."
      ],
      obligations: [...OBLIGATIONS, "Følg leasingaftalens krav til service og vedligeholdelse."],
      payment: PAYMENT,
      startAndEnd: [
        "Dækningen begynder den dag, tilbuddet er aktiveret og policen udstedt, tidligst den aftalte ikrafttrædelsesdato.",
        "Forsikringen løber et år ad gangen og fornyes automatisk; den slutter senest, når leasingaftalen ophører."
      ],
      cancellation: CANCELLATION
    },
    extended: {
      variantTitle: "Udvidet, erhverv",
      kind: "Bilforsikring til en virksomhed, eller til kørsel i erhverv og med gods, i en leaset personbil eller varevogn. Leasingselskabet ejer bilen. Forsikringen dækker ansvar og kasko med de dækninger, der står nedenfor.",
      notInsured: [...NOT_INSURED, "Udlejning af bilen og erhvervsmæssig personbefordring (taxikørsel)."],
      restrictions: [...RESTRICTIONS, "Last og gods, som bilen transporterer, er ikke omfattet af kasko."],
      where: [
        "I Danmark og i de lande, der er med i det grønne kort-system.",
        "Redning i udlandet gælder i Europa, når den er med i dækningen."
      ],
      obligations: [...OBLIGATIONS, "Sørg for, at alle førere i virksomheden har gyldigt kørekort til bilen."],
      payment: PAYMENT,
      startAndEnd: [
        "Dækningen begynder den dag, tilbuddet er aktiveret og policen udstedt, tidligst den aftalte ikrafttrædelsesdato.",
        "Forsikringen løber et år ad gangen og fornyes automatisk; den slutter senest, når leasingaftalen ophører."
      ],
      cancellation: CANCELLATION
    }
  },
  "insurance-car-standalone": {
    standard: {
      variantTitle: "Standard, privat",
      kind: "Bilforsikring til en privat person, der kører en personbil eller varevogn privat. Forhandleren ejer bilen, til den er overdraget. Forsikringen dækker ansvar og kasko med de dækninger, der står nedenfor.",
      notInsured: [...NOT_INSURED, "Kørsel med bilen til erhverv eller godstransport."],
      restrictions: RESTRICTIONS,
      where: [
        "I Danmark og i de lande, der er med i det grønne kort-system.",
        "Vejhjælp ydes i Danmark og i det øvrige Europa."
      ],
      obligations: OBLIGATIONS,
      payment: PAYMENT,
      startAndEnd: [
        "Dækningen begynder den dag, tilbuddet er aktiveret og policen udstedt, tidligst den aftalte ikrafttrædelsesdato.",
        "Forsikringen løber et år ad gangen og fornyes automatisk, indtil den opsiges."
      ],
      cancellation: CANCELLATION
    },
    extended: {
      variantTitle: "Udvidet, erhverv",
      kind: "Bilforsikring til en virksomhed, eller til kørsel i erhverv og med gods, i en personbil eller varevogn. Forhandleren ejer bilen, til den er overdraget. Forsikringen dækker ansvar og kasko med de dækninger, der står nedenfor.",
      notInsured: [...NOT_INSURED, "Udlejning af bilen og erhvervsmæssig personbefordring (taxikørsel)."],
      restrictions: [...RESTRICTIONS, "Last og gods, som bilen transporterer, er ikke omfattet af kasko."],
      where: [
        "I Danmark og i de lande, der er med i det grønne kort-system.",
        "Redning i udlandet gælder i Europa, når den er med i dækningen."
      ],
      obligations: [...OBLIGATIONS, "Sørg for, at alle førere i virksomheden har gyldigt kørekort til bilen."],
      payment: PAYMENT,
      startAndEnd: [
        "Dækningen begynder den dag, tilbuddet er aktiveret og policen udstedt, tidligst den aftalte ikrafttrædelsesdato.",
        "Forsikringen løber et år ad gangen og fornyes automatisk, indtil den opsiges."
      ],
      cancellation: CANCELLATION
    }
  }
}

/** The IPID's terms of a product variant. */
export const productTerms = (productName: ProductName, variant: Variant): ProductTerms => TERMS[productName][variant]
