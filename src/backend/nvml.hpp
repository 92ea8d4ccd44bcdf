// NVML (the driver's management library, libnvidia-ml.so.1), loaded at run time like NCCL and
// cuBLASLt (dynlib.hpp): the GPU's clocks, power, temperature and throttle reasons for the
// records' environment, and the device facts CUDA does not give (persistence mode, ECC mode,
// power limit, other processes holding the GPU). Without the library (a CPU-only machine, a
// container without the driver's files) every call says so and nothing fails.
// JOSEKI_NVML=/path/libnvidia-ml.so.1 picks the library; JOSEKI_NVML=off disables NVML.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "measure/environment.hpp"

namespace joseki::nvml {

// "" when NVML is loaded and initialised; else the reason (library missing, nvmlInit failed, off).
std::string unavailable();

// A probe of the GPU with this PCI bus id (as cudaDeviceGetPCIBusId writes it). Never null: without
// NVML, or for a bus id NVML does not know, its unavailable() says why and read() returns nullopt.
std::shared_ptr<measure::EnvironmentProbe> probe_for(const std::string& pci_bus_id);

// Persistence and ECC mode, enforced power limit, and the compute processes other than this one
// that hold a context on that GPU. status says "ok" or why not.
measure::NvmlFacts device_facts(const std::string& pci_bus_id);

// How many compute processes hold a CUDA context on any GPU of this machine (this one included);
// nullopt when NVML cannot say. 0 means the device state is "idle" for an EXTERNAL measurement.
std::optional<int> contexts_anywhere();

}  // namespace joseki::nvml
