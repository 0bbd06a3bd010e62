#include "multi_gpu_devices.hpp"

#include <stdexcept>

#include "families.hpp"
#include "unsupported.hpp"

namespace sync_bench {

std::string list_of(const std::vector<int>& devices) {
  std::string text;
  for (int d : devices) text += (text.empty() ? "" : ",") + std::to_string(d);
  return text;
}

Devices chosen_devices() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  const MultiGpuSelection& selection = multi_gpu_selection();
  Devices d;
  // A list may name one GPU twice, and then needs only that one.
  if (!selection.devices.empty()) {
    if (selection.devices.size() < 2)
      throw std::logic_error("--devices lists fewer than two devices (the parser lets none by)");
    for (int i : selection.devices)
      if (i >= count)
        throw Unsupported("--devices=" + list_of(selection.devices) + " names device " +
                          std::to_string(i) + ", but only " + std::to_string(count) +
                          " CUDA devices are visible");
    d.pair = {selection.devices[0], selection.devices[1]};
    d.each = selection.devices;
    return d;
  }
  if (count < 2)
    throw Unsupported("MultiGpu needs two CUDA devices; this machine has " + std::to_string(count) +
                      " (--devices=0,0 runs CrossDevice and SyncAll on one, across two streams)");
  if (selection.all) {
    d.pair = {0, 1};
    for (int i = 0; i < count; ++i) d.each.push_back(i);
    return d;
  }
  if (selection.device + 1 >= count)
    throw Unsupported("MultiGpu uses --device=" + std::to_string(selection.device) +
                      " and the next device, but only " + std::to_string(count) +
                      " CUDA devices are visible (choose two with --devices=i,j)");
  d.pair = {selection.device, selection.device + 1};
  d.each = d.pair;
  return d;
}

void require_distinct(const std::vector<int>& devices, const char* benchmark) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = i + 1; j < devices.size(); ++j)
      if (devices[i] == devices[j])
        throw Unsupported(std::string(benchmark) + " needs distinct GPUs: it would run on " +
                          list_of(devices) + " (--devices names device " +
                          std::to_string(devices[i]) + " twice)");
}

void report_devices(benchmark::State& state, const std::vector<int>& devices) {
  state.counters["devices"] = static_cast<double>(devices.size());
  state.counters["device_a"] = devices.at(0);
  state.counters["device_b"] = devices.at(1);
}

}  // namespace sync_bench
