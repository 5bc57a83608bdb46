/**
 * The insurer's privacy policy, as kasko serves it when the insurer keeps none of its own at a URL of its own
 * (`privacy.policy_href` of offers and quotes): who is responsible for the customer's data, what is kept and why,
 * for how long, who receives it, and the customer's rights under the GDPR — in Danish, the products' language, and
 * in English.
 */
import type { Language } from "../Language.js"
import { DOCUMENT_WORDS } from "./DocumentWords.js"
import { INSURER } from "../product/ProductCatalogue.js"
import { fingerprint, list, paragraph, type PrintedDocument, type Section } from "./PrintedDocument.js"

const insurer = INSURER.organization.name
const insurerAddress = `${INSURER.address.street} ${INSURER.address.house_number}, ${INSURER.address.postal_code} ${INSURER.address.city}`

/** The policy's words in Danish: catalogue data, like the products' terms. */
const SECTIONS: ReadonlyArray<Section> = [
  {
    heading: "Hvem er ansvarlig for dine oplysninger?",
    blocks: [
      paragraph(
        `${insurer} (CVR ${INSURER.organization.cvr_number}), ${insurerAddress}, er dataansvarlig for de oplysninger, vi får om dig, når en forhandler eller et leasingselskab beder om et tilbud på bilforsikring til dig.`
      )
    ]
  },
  {
    heading: "Hvilke oplysninger behandler vi?",
    blocks: [
      list([
        "Navn, CPR-nummer eller CVR-nummer, adresse, telefonnummer og e-mailadresse på forsikringstager, bruger og ejer af bilen.",
        "Oplysninger om bilen: mærke, model, stelnummer, registreringsnummer, pris og anvendelse.",
        "Den yngste førers alder eller fødselsdato, når den er oplyst.",
        "Tilbuddet selv: dækninger, pris, og hvornår det er oprettet og aktiveret."
      ])
    ]
  },
  {
    heading: "Hvorfor behandler vi dem?",
    blocks: [
      list([
        "For at beregne prisen og give dig et tilbud, og for at indgå og administrere forsikringsaftalen (databeskyttelsesforordningens art. 6, stk. 1, litra b).",
        "CPR-nummeret bruger vi til entydigt at identificere dig (databeskyttelseslovens § 11, stk. 2).",
        "For at overholde lovkrav, fx bogføringsloven og reglerne om forsikringsformidling (art. 6, stk. 1, litra c)."
      ])
    ]
  },
  {
    heading: "Hvem får oplysningerne?",
    blocks: [
      list([
        "Den forhandler eller det leasingselskab, der har lavet tilbuddet sammen med dig.",
        "Vores genforsikringsselskaber og it-leverandører, som behandler oplysningerne på vores vegne og efter vores instruks."
      ])
    ]
  },
  {
    heading: "Hvor længe gemmer vi dem?",
    blocks: [
      list([
        "Et tilbud, der ikke bliver aktiveret, slettes, når det er udløbet efter 30 dage.",
        "Et aktiveret tilbud gemmer vi, så længe forsikringen løber, og derefter så længe bogføringsloven og forældelsesreglerne kræver det."
      ])
    ]
  },
  {
    heading: "Dine rettigheder",
    blocks: [
      list([
        "Du kan få indsigt i de oplysninger, vi har om dig, og få forkerte oplysninger rettet.",
        "Du kan bede om at få oplysninger slettet eller begrænset, og gøre indsigelse mod behandlingen.",
        "Du kan få dine oplysninger udleveret i et almindeligt maskinlæsbart format.",
        `Skriv til ${insurer}, ${insurerAddress}, hvis du vil bruge dine rettigheder.`,
        "Du kan klage til Datatilsynet, Carl Jacobsens Vej 35, 2500 Valby, www.datatilsynet.dk."
      ])
    ]
  }
]

/** The policy's words in English. */
const ENGLISH_SECTIONS: ReadonlyArray<Section> = [
  {
    heading: "Who is responsible for your data?",
    blocks: [
      paragraph(
        `${insurer} (CVR ${INSURER.organization.cvr_number}), ${insurerAddress}, is the data controller for the data we receive about you when a dealer or a leasing company asks for a car insurance quote for you.`
      )
    ]
  },
  {
    heading: "What data do we process?",
    blocks: [
      list([
        "Name, CPR number or CVR number, address, phone number and email address of the policyholder, user and owner of the car.",
        "Data about the car: make, model, chassis number, registration number, price and use.",
        "The youngest driver's age or date of birth, when given.",
        "The quote itself: covers, price, and when it was created and activated."
      ])
    ]
  },
  {
    heading: "Why do we process it?",
    blocks: [
      list([
        "To calculate the price and give you a quote, and to enter into and administer the insurance contract (GDPR Article 6(1)(b)).",
        "We use the CPR number to identify you unambiguously (Danish Data Protection Act, section 11(2)).",
        "To comply with legal requirements, such as the Danish Bookkeeping Act and the rules on insurance distribution (Article 6(1)(c))."
      ])
    ]
  },
  {
    heading: "Who receives the data?",
    blocks: [
      list([
        "The dealer or leasing company that made the quote with you.",
        "Our reinsurers and IT suppliers, who process the data on our behalf and on our instructions."
      ])
    ]
  },
  {
    heading: "How long do we keep it?",
    blocks: [
      list([
        "A quote that is not activated is deleted when it has expired after 30 days.",
        "We keep an activated quote for as long as the insurance runs, and then for as long as the Bookkeeping Act and the rules on limitation require."
      ])
    ]
  },
  {
    heading: "Your rights",
    blocks: [
      list([
        "You may see the data we hold about you and have incorrect data corrected.",
        "You may ask for data to be erased or restricted, and object to the processing.",
        "You may receive your data in a common machine-readable format.",
        `Write to ${insurer}, ${insurerAddress}, if you wish to use your rights.`,
        "You may complain to the Danish Data Protection Agency (Datatilsynet), Carl Jacobsens Vej 35, 2500 Valby, www.datatilsynet.dk."
      ])
    ]
  }
]

// the policy's words are as of this date: a change of them is a new date
const DATED = Date.parse("2026-01-01T00:00:00.000Z")

const CONTENT = {
  da: {
    language: "da-DK",
    title: "Privatlivspolitik",
    subtitle: `${insurer} – bilforsikring gennem forhandlere og leasingselskaber`,
    sections: SECTIONS,
    footer: `${insurer}, CVR ${INSURER.organization.cvr_number}, ${insurerAddress}`,
    author: insurer,
    dated: DATED
  },
  en: {
    language: "en",
    title: "Privacy policy",
    subtitle: `${insurer} – car insurance through dealers and leasing companies`,
    sections: ENGLISH_SECTIONS,
    footer: `${insurer}, CVR ${INSURER.organization.cvr_number}, ${insurerAddress}`,
    author: insurer,
    dated: DATED
  }
} as const

/** The privacy policy in each language: the same document every time, made once. */
export const PRIVACY_POLICIES: Readonly<Record<Language, PrintedDocument>> = {
  da: { ...CONTENT.da, cacheKey: `privacy-policy/${fingerprint(JSON.stringify(CONTENT.da))}` },
  en: {
    ...CONTENT.en,
    pageNumbers: DOCUMENT_WORDS.en.pageNumbers!,
    cacheKey: `privacy-policy/${fingerprint(JSON.stringify(CONTENT.en))}`
  }
}

/** The privacy policy in Danish. */
export const PRIVACY_POLICY: PrintedDocument = PRIVACY_POLICIES.da
