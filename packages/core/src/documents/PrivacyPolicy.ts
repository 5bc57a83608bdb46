/**
 * The insurer's privacy policy, as kasko serves it when the insurer keeps none of its own at a URL of its own
 * (`privacy.policy_href` of offers and quotes): who is responsible for the customer's data, what is kept and why,
 * for how long, who receives it, and the customer's rights under the GDPR — in Danish, the products' language.
 */
import { INSURER } from "../product/ProductCatalogue.js"
import { fingerprint, list, paragraph, type PrintedDocument, type Section } from "./PrintedDocument.js"

const insurer = INSURER.organization.name
const insurerAddress = `${INSURER.address.street} ${INSURER.address.house_number}, ${INSURER.address.postal_code} ${INSURER.address.city}`

/** The policy's words: catalogue data, like the products' terms. */
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

const content = {
  language: "da-DK",
  title: "Privatlivspolitik",
  subtitle: `${insurer} – bilforsikring gennem forhandlere og leasingselskaber`,
  sections: SECTIONS,
  footer: `${insurer}, CVR ${INSURER.organization.cvr_number}, ${insurerAddress}`,
  author: insurer,
  // the policy's words are as of this date: a change of them is a new date
  dated: Date.parse("2026-01-01T00:00:00.000Z")
}

/** The privacy policy: the same document every time, made once. */
export const PRIVACY_POLICY: PrintedDocument = {
  ...content,
  cacheKey: `privacy-policy/${fingerprint(JSON.stringify(content))}`
}
