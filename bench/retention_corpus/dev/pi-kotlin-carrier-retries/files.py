# ruff: noqa: E501
"""Files of the parcelly repository at the start of the session (written by hand)."""

SETTINGS = '''rootProject.name = "parcelly"

include(":core", ":api", ":importer")
'''

IMPORTER_BUILD = '''plugins {
    kotlin("jvm")
    id("org.jlleitschuh.gradle.ktlint")
}

dependencies {
    implementation(project(":core"))
    implementation(libs.ktor.client.core)
    implementation(libs.ktor.client.cio)
    implementation(libs.kotlinx.coroutines.core)
    implementation(libs.slf4j.api)

    testImplementation(kotlin("test"))
    testImplementation(libs.kotlinx.coroutines.test)
    testImplementation(libs.ktor.client.mock)
}

tasks.test {
    useJUnitPlatform()
}
'''

CARRIER_CLIENT = '''package com.parcelly.importer

import com.parcelly.core.TrackingEvent
import io.ktor.client.HttpClient
import io.ktor.client.request.get
import io.ktor.client.statement.bodyAsText
import io.ktor.http.HttpStatusCode
import org.slf4j.LoggerFactory

/** One carrier's tracking API. */
interface CarrierClient {
    val carrier: String

    suspend fun events(trackingNumber: String): List<TrackingEvent>
}

class CarrierHttpException(val carrier: String, val status: Int, val retryAfter: String?) :
    RuntimeException("$carrier answered HTTP $status")

class HttpCarrierClient(
    override val carrier: String,
    private val baseUrl: String,
    private val apiKey: String,
    private val http: HttpClient,
    private val parse: (String) -> List<TrackingEvent>,
) : CarrierClient {
    private val log = LoggerFactory.getLogger(HttpCarrierClient::class.java)

    override suspend fun events(trackingNumber: String): List<TrackingEvent> {
        val url = "$baseUrl/track/$trackingNumber?apikey=$apiKey"
        log.debug("GET {}", url)
        val response = http.get(url)
        if (response.status != HttpStatusCode.OK) {
            throw CarrierHttpException(carrier, response.status.value, response.headers["Retry-After"])
        }
        return parse(response.bodyAsText())
    }
}
'''

POLL_JOB = '''package com.parcelly.importer

import com.parcelly.core.ShipmentRepository
import kotlinx.coroutines.delay
import org.slf4j.LoggerFactory
import kotlin.time.Duration
import kotlin.time.Duration.Companion.minutes

/** Polls every open shipment's carrier and stores new tracking events. */
class PollJob(
    private val shipments: ShipmentRepository,
    private val clients: Map<String, CarrierClient>,
    private val interval: Duration = 15.minutes,
) {
    private val log = LoggerFactory.getLogger(PollJob::class.java)

    suspend fun runOnce(): Int {
        var stored = 0
        for (shipment in shipments.open()) {
            val client = clients[shipment.carrier] ?: continue
            try {
                val events = client.events(shipment.trackingNumber)
                stored += shipments.addEvents(shipment.id, events)
            } catch (e: CarrierHttpException) {
                log.warn("{} failed for {}: HTTP {}", e.carrier, shipment.trackingNumber, e.status)
            }
        }
        return stored
    }

    suspend fun runForever() {
        while (true) {
            log.info("poll stored {} events", runOnce())
            delay(interval)
        }
    }
}
'''

SHIPMENT = '''package com.parcelly.core

import java.time.Instant
import java.util.UUID

// Published as com.parcelly:core (mobile app pins 2.4.x). Binary compatibility matters.
data class Shipment(
    val id: UUID,
    val carrier: String,
    val trackingNumber: String,
    val status: ShipmentStatus,
    val createdAt: Instant,
)

enum class ShipmentStatus { CREATED, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, EXCEPTION }

data class TrackingEvent(val at: Instant, val code: String, val location: String?, val description: String)

interface ShipmentRepository {
    suspend fun open(): List<Shipment>

    suspend fun addEvents(id: UUID, events: List<TrackingEvent>): Int
}
'''
